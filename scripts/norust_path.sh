# Sourced by build_wheels.sh and test_wheel_pythons.sh: the PATH they install wheels under.

# PATH without any directory holding cargo, rustc or rustup (a wheel must install and run
# with no Rust toolchain in sight).
norust_path() {
    local p="" d
    IFS=: read -ra dirs <<< "$PATH"
    for d in "${dirs[@]}"; do
        [[ -x $d/cargo || -x $d/rustc || -x $d/rustup ]] && continue
        p=${p:+$p:}$d
    done
    echo "$p"
}
