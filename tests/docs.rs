//! The generated docs are current: docs/lua-api.md (from the Lua API's table, as the editor
//! types are) and docs/cli.md (from the command line's definition). With MEEPLE_BLESS set,
//! the test writes them afresh instead (the way every generated file here is remade).

use std::path::Path;

fn current(file: &str, made: String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    if std::env::var_os("MEEPLE_BLESS").is_some() {
        std::fs::write(&path, made).expect("writing the doc");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == made,
        "{file} is stale: run `MEEPLE_BLESS=1 cargo test --test docs` to make it again"
    );
}

#[test]
fn the_lua_api_page_is_current() {
    current("docs/lua-api.md", meeple::script::luatypes::markdown());
}

#[test]
fn the_command_line_page_is_current() {
    current("docs/cli.md", meeple::cli::docs::markdown());
}
