# zsh_complete.zsh FPATH_DIR HITS_FILE LINE: types LINE and TAB into an
# interactive zsh (zpty) whose fpath starts with FPATH_DIR and prints the
# candidates its completion offers, sorted, one a line. compadd is wrapped to
# write every candidate it adds to HITS_FILE. Used by tests/package/run.sh.
zmodload zsh/zpty || exit 2
dir=$1 hits=$2 line=$3
: >"$hits"
zpty lg zsh -f -i
zpty -w lg "PS1=''; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w lg 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  local ret=$?
  (( $#__hits )) && print -l -- "<hit>"${^__hits} >>'"${hits//\'/}"'
  return ret
}'
zpty -w lg "$line"$'\t'
for i in {1..50}; do
  grep -q '^<hit>' "$hits" && break
  sleep 0.2
done
sleep 0.5
zpty -d lg
sed -n 's/^<hit>//p' "$hits" | sort -u
