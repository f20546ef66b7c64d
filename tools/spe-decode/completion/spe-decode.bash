# bash completion for spe-decode.
#
# Commands come from 'spe-decode --help' and each command's options from
# 'spe-decode COMMAND --help', so this file never falls behind the tool.
# Files are completed everywhere else; -i, -o and perf.data first.

_spe_decode()
{
	local cur prev cmd words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=${COMP_WORDS[1]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		words=$("${COMP_WORDS[0]}" --help 2>/dev/null |
			awk '/^commands:/ { on = 1; next } on && NF { print $1 }')
		mapfile -t COMPREPLY < <(compgen -W "$words --help --version" -- "$cur")
		return
	fi
	case $prev in
	-i|--input|-o|--output|--kallsyms|--features-from)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	--symfs|--buildid-dir)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	esac
	# --perf-version V, or --perf-version=V ('=' is a word of its own
	# when COMP_WORDBREAKS has it, as by default).
	if [ "$prev" = --perf-version ] ||
	   { [ "$prev" = = ] && [ "${COMP_WORDS[COMP_CWORD-2]}" = --perf-version ]; }; then
		mapfile -t COMPREPLY < <(compgen -W "6.1 6.12 7.3" -- "$cur")
		return
	fi
	if [[ $cur == --perf-version=* ]]; then
		mapfile -t COMPREPLY < <(compgen -P --perf-version= -W "6.1 6.12 7.3" -- "${cur#*=}")
		return
	fi
	if [[ $cur == -* ]]; then
		words=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
			grep -oE -- '(^|[ [,|])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[ [,|]//' | sort -u)
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return
	fi
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -F _spe_decode spe-decode
