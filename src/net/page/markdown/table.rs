//! Tables as GFM pipe tables: each cell's Markdown is cut out of the output when the cell
//! ends and kept here, and the whole table is written at `</table>` with its columns padded to
//! their widest cell (the first row is the header). A single-column table (a layout table) is
//! written as paragraphs instead, and padding that would blow the output up (one huge cell, a
//! row of thousands of cells) is left out, so the output stays linear in the input.

use super::writer::Writer;

/// Columns up to this many characters wide are padded to line up.
const MAX_PADDED_WIDTH: usize = 60;

/// A cell's range in `Table::text`, its width on one line, and whether it is written as it is
/// (no line break or `|` to rewrite).
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    from: usize,
    to: usize,
    width: usize,
    plain: bool,
}

#[derive(Debug, Default)]
pub(super) struct Table {
    /// The cells' Markdown, one after the other.
    text: String,
    cells: Vec<Cell>,
    /// Where each row starts in `cells`.
    rows: Vec<usize>,
    /// Where the open cell's Markdown starts in the output.
    cell_start: Option<usize>,
    /// Where the table starts in the output (text outside cells lands after it).
    start: usize,
}

impl Table {
    pub(super) fn begin(&mut self, w: &mut Writer) {
        self.text.clear();
        self.cells.clear();
        self.rows.clear();
        self.cell_start = None;
        w.request_break(2);
        w.flush_block();
        self.start = w.out.len();
    }

    pub(super) fn start_row(&mut self) {
        self.rows.push(self.cells.len());
    }

    pub(super) fn start_cell(&mut self, w: &mut Writer) {
        if self.rows.is_empty() {
            self.start_row();
        }
        self.cell_start = Some(w.out.len());
        w.in_cell = true;
        w.mark = w.out.len();
        w.drop_space();
    }

    pub(super) fn end_cell(&mut self, w: &mut Writer) {
        let Some(start) = self.cell_start.take() else {
            return;
        };
        let from = self.text.len();
        let text = w.out[start..].trim();
        let plain = !text.bytes().any(|b| b == b'\n' || b == b'|');
        let width = if plain { text.chars().count() } else { width(text) };
        self.text.push_str(text);
        self.cells.push(Cell {
            from,
            to: self.text.len(),
            width,
            plain,
        });
        w.out.truncate(start);
        w.in_cell = false;
        w.mark = w.out.len();
    }

    /// Writes the table where it started, after any text that stood outside its cells.
    pub(super) fn end(&mut self, w: &mut Writer) {
        self.end_cell(w);
        let rows: Vec<&[Cell]> = (0..self.rows.len())
            .map(|r| &self.cells[self.rows[r]..self.rows.get(r + 1).copied().unwrap_or(self.cells.len())])
            .filter(|row| !row.is_empty())
            .collect();
        let columns = rows.iter().map(|row| row.len()).max().unwrap_or(0);
        if columns == 0 {
            return;
        }
        if w.out.len() > self.start {
            // Text that stood outside the cells goes before the table, as browsers show it.
            w.mark = self.start;
            w.request_break(2);
        }
        if columns == 1 {
            for row in &rows {
                self.paragraphs(w, row[0]);
            }
        } else {
            w.flush_block();
            self.grid(w, &rows, columns);
        }
        w.request_break(2);
    }

    /// One cell of a layout table, its lines kept as lines.
    fn paragraphs(&self, w: &mut Writer, Cell { from, to, .. }: Cell) {
        w.request_break(2);
        for line in self.text[from..to].split('\n') {
            if line.trim().is_empty() {
                w.request_break(2);
            } else {
                w.request_break(1);
                w.text(line);
            }
        }
        w.request_break(2);
    }

    fn grid(&self, w: &mut Writer, rows: &[&[Cell]], columns: usize) {
        let mut widths = vec![3usize; columns];
        let mut total = 0;
        for row in rows {
            for (column, cell) in row.iter().enumerate() {
                total += cell.width + 3;
                widths[column] = widths[column].max(cell.width);
            }
        }
        // Padding costs rows × (sum of widths); past a few times the cells' own size it is
        // mostly spaces, and a hostile table could make it quadratic.
        // A column with a paragraph in a cell (an infobox) is not padded: its other rows
        // would be mostly spaces.
        for width in &mut widths {
            if *width > MAX_PADDED_WIDTH {
                *width = 0;
            }
        }
        let padded = rows.len() * (widths.iter().sum::<usize>() + 3 * columns);
        let pad = padded <= 4 * total + 4096;
        for (r, row) in rows.iter().enumerate() {
            if r > 0 {
                w.out.push('\n');
                w.out.push_str(&w.prefix);
            }
            let shown = if pad { columns } else { row.len() };
            for (column, width) in widths.iter().enumerate().take(shown) {
                let cell = row.get(column).copied().unwrap_or_default();
                w.out.push_str(if column == 0 { "| " } else { " | " });
                self.write_cell(&mut w.out, cell);
                if pad {
                    w.out.extend(std::iter::repeat_n(' ', width.saturating_sub(cell.width)));
                }
            }
            w.out.push_str(" |");
            if r == 0 {
                w.out.push('\n');
                w.out.push_str(&w.prefix);
                for (column, width) in widths.iter().enumerate().take(shown) {
                    w.out.push_str(if column == 0 { "| " } else { " | " });
                    w.out
                        .extend(std::iter::repeat_n('-', if pad { (*width).max(3) } else { 3 }));
                }
                w.out.push_str(" |");
            }
        }
    }

    /// A cell on one line: its lines joined by a space, `|` escaped.
    fn write_cell(&self, out: &mut String, Cell { from, to, plain, .. }: Cell) {
        if plain {
            out.push_str(&self.text[from..to]);
            return;
        }
        for (i, line) in lines(&self.text[from..to]).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            for (j, part) in line.split('|').enumerate() {
                if j > 0 {
                    out.push_str("\\|");
                }
                out.push_str(part);
            }
        }
    }
}

/// The characters a cell takes once written on one line (a `|` is escaped with one more).
fn width(text: &str) -> usize {
    let mut width = 0;
    for (i, line) in lines(text).enumerate() {
        width += usize::from(i > 0) + line.chars().count() + line.bytes().filter(|&b| b == b'|').count();
    }
    width
}

/// A cell's non-empty lines.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').filter(|line| !line.is_empty())
}
