//! Links the `hermes-acp` executable position-dependent on Linux (`-no-pie`), so that starting it
//! applies no relocations: as a PIE, the loader rewrote about 250 pages of pointers before
//! `main` at every launch, a quarter of the time an editor waits for the `initialize` answer.
//! Only the executable's own image gets a fixed address; heap, stack, mmap and shared
//! libraries stay randomised. Musl builds get the same from `.cargo/config.toml`
//! (`relocation-model=static`); this covers `cargo install` and `cargo build --release`, which
//! cannot take that flag because it would also apply to proc-macro libraries.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
