# shellcheck shell=bash
# The SPU model's test module (tools/spu-model/kmod), built from the very
# files drivers/perf/sim/spe_spu_*.c and include/spe/ against a Debian
# kernel's headers with W=1 and sparse.  Sourced; expects $top.  Used by
# suite 33 (the build) and suite 62 (the module in a guest).
#
#   spe_model_kmod_build KERNEL DIR   stages the sources, builds the module
#                                     into DIR (its log DIR/build.log, the
#                                     script's stderr DIR.stderr) and
#                                     prints the .ko's path; fails as the
#                                     build does
spe_model_kmod_build() {
	local k=$1 dir=$2 stage="$top/build/spu-model/kmod-src-$1"
	rm -rf "$stage" "$dir"
	mkdir -p "$stage/drivers/perf/sim" "$stage/include" "$(dirname "$dir")"
	cp "$top"/tools/spu-model/kmod/Kbuild "$top"/tools/spu-model/kmod/*.c "$stage/"
	cp "$top"/drivers/perf/sim/spe_spu_model.c "$top"/drivers/perf/sim/spe_spu_opgen.c \
		"$stage/drivers/perf/sim/"
	cp -r "$top/include/spe" "$stage/include/"
	"$top/scripts/build-external-module.sh" --kernel "$k" --sparse --out "$dir" "$stage" 2>"$dir.stderr"
}
