//! Builds Lua 5.4 for `mlua-sys` in place of the `lua-src` crate (meeple's Cargo.toml puts it
//! there with `[patch.crates-io]`), with the part of that crate's interface `mlua-sys` calls:
//! `Build::new().build(Lua54)`, then the artifacts' cargo metadata. The sources are Lua
//! 5.4.9's with the small changes `PATCHES.md` lists (`lua-5.4.9/`, licence in `LICENSE`): a
//! fixed hash seed and bounds on loops that run in C. They are compiled as the single
//! unit `lua-one.c`, as Lua's own `onelua.c` does, so that the interpreter loop inlines the
//! table lookups, comparisons and calls that sit in other files, and without a frame pointer
//! (a build with debug information would keep one), which leaves the loop one more register.

use std::fs;
use std::path::{Path, PathBuf};

/// The Lua versions this build offers.
pub enum Version {
    Lua54,
}
pub use self::Version::*;

/// A build of Lua, run from a build script (it reads `OUT_DIR`, the target and the profile
/// from the environment Cargo gives build scripts).
#[derive(Default)]
pub struct Build {}

/// Where the built library and its headers are.
pub struct Artifacts {
    include_dir: PathBuf,
    lib_dir: PathBuf,
    lua_lib: &'static str,
}

impl Build {
    pub fn new() -> Build {
        Build {}
    }

    /// Compiles the library into `OUT_DIR/lib` and copies its public headers to
    /// `OUT_DIR/include`; panics with the reason when it cannot (a build script's way to fail).
    pub fn build(&self, version: Version) -> Artifacts {
        let lua_lib = match version {
            Lua54 => "lua5.4",
        };
        let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set"));
        let headers = source().join("lua-5.4.9");
        let (lib_dir, include_dir) = (out_dir.join("lib"), out_dir.join("include"));
        for dir in [&lib_dir, &include_dir] {
            fs::create_dir_all(dir)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        }
        let mut cc = cc::Build::new();
        cc.warnings(false)
            .cargo_metadata(false)
            .file(source().join("lua-one.c"))
            .include(&headers)
            .define("LUA_USE_LINUX", None)
            .define("LUA_COMPAT_5_3", None)
            .flag_if_supported("-fno-common")
            .force_frame_pointer(false)
            .out_dir(&lib_dir);
        // Checked API calls in builds with debug assertions, as the `lua-src` crate does.
        if cfg!(debug_assertions) {
            cc.define("LUA_USE_APICHECK", None).debug(true);
        }
        cc.compile(lua_lib);
        for header in ["lauxlib.h", "lua.h", "luaconf.h", "lualib.h"] {
            let (from, to) = (headers.join(header), include_dir.join(header));
            fs::copy(&from, &to).unwrap_or_else(|e| panic!("cannot copy {}: {e}", from.display()));
        }
        Artifacts {
            include_dir,
            lib_dir,
            lua_lib,
        }
    }
}

/// This crate's folder, where the C sources are.
fn source() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

impl Artifacts {
    /// Tells Cargo to link the library and where its headers are, and to build it again when
    /// a C source changes (Cargo itself watches only this crate's Rust sources).
    pub fn print_cargo_metadata(&self) {
        for watched in ["lua-one.c", "loptions.c", "lua-5.4.9"] {
            println!(
                "cargo:rerun-if-changed={}",
                source().join(watched).display()
            );
        }
        println!("cargo:rustc-link-search=native={}", self.lib_dir.display());
        println!("cargo:rustc-link-lib=static={}", self.lua_lib);
        println!("cargo:include={}", self.include_dir.display());
        println!("cargo:lib={}", self.lib_dir.display());
    }
}
