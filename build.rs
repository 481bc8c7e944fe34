//! Builds the Lua 5.4 VM the `mlua` crate links (`vendor/lua-5.4.9`, unmodified, compiled as
//! the single unit `vendor/lua-one.c` so the interpreter loop inlines the VM's internal calls).
//! `.cargo/config.toml` names the library for `mlua` (`LUA_LIB_NAME`).

fn main() {
    println!("cargo:rerun-if-changed=vendor");
    let mut build = cc::Build::new();
    build
        .file("vendor/lua-one.c")
        .include("vendor/lua-5.4.9")
        .define("LUA_USE_LINUX", None)
        .define("LUA_COMPAT_5_3", None)
        .flag_if_supported("-fno-common")
        // The interpreter loop keeps one more value in a register (debug builds would keep
        // the frame pointer).
        .flag("-fomit-frame-pointer")
        .warnings(false);
    // Optimised even in test builds, like the dependencies (Cargo.toml); checked API calls
    // outside release builds, as Lua's own debug builds have them.
    if matches!(std::env::var("OPT_LEVEL").as_deref(), Ok("0" | "1")) {
        build.opt_level(2);
    }
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        build.define("LUA_USE_APICHECK", None);
    }
    build.compile("meeple_lua");
}
