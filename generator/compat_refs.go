package generator

// References returns the files the contract src names in its imports: and
// schema: keys, joined to the directory of src.Path: what ReadSources follows
// from a contract. It lets a caller that reads contracts from somewhere other
// than the file system (compat reads them with git show) follow them the same
// way. A contract that does not parse names nothing. Safe for concurrent use.
func References(src Source) []string {
	var out []string
	for _, ref := range references(src.Path, src.Data) {
		out = append(out, ref.path)
	}
	return out
}
