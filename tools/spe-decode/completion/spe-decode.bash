# bash completion for spe-decode.
#
# Commands come from 'spe-decode --help', each command's options from
# 'spe-decode COMMAND --help', and the values of --sort, --order and
# --unresolved from the message the command gives for one it does not
# know, so this file never falls behind the tool.  Files are completed everywhere else.

# The values a command takes for an option: its arguments ending in the
# unknown value '?' make it name them, "... '?' (a, b, c)" or "(keys: a,
# b)", before it opens any file (the path given cannot exist).
_spe_decode_values()
{
	"${COMP_WORDS[0]}" "$@" /dev/null/none 2>&1 >/dev/null |
		sed -n "s/.*'?' (\(keys: \)\{0,1\}\(.*\))\$/\2/p" | tr -d ','
}

_spe_decode()
{
	local cur prev cmd words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=${COMP_WORDS[1]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		# The indented lines after "commands:", not the prose below them.
		words=$("${COMP_WORDS[0]}" --help 2>/dev/null |
			awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
		mapfile -t COMPREPLY < <(compgen -W "$words --help --version" -- "$cur")
		return
	fi
	case $prev in
	-i|--input|-o|--output|--kallsyms|--features-from|-k|--vmlinux)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	--symfs|--buildid-dir)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	--sort|-s)
		# Comma-separated keys: the one being typed, after the others
		# (-s is perf's spelling, report's).
		local done=
		[[ $cur == *,* ]] && done=${cur%,*},
		words=$(_spe_decode_values "$cmd" --sort '?')
		mapfile -t COMPREPLY < <(compgen -P "$done" -W "$words" -- "${cur##*,}")
		return ;;
	--order)
		# report orders the table of --sort: it checks --order with one.
		if [ "$cmd" = report ]; then
			words=$(_spe_decode_values report --sort sym --order '?')
		else
			words=$(_spe_decode_values "$cmd" --order '?')
		fi
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return ;;
	--unresolved)
		words=$(_spe_decode_values "$cmd" --unresolved '?')
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
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
