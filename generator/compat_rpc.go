package generator

// compatRPCItems lists the two payloads of each RPC of d: the request, which
// the owner serves (backward), and the response, which its callers read
// (forward). The queue and codec are compared once, on the request.
func compatRPCItems(d *domain) []compatItem {
	var out []compatItem
	for _, r := range d.RPCs {
		out = append(out,
			compatItem{domain: d.Name, name: r.Name + "Request", kind: "rpc-request", pos: r.Pos, keyLabel: "queue", key: r.Queue,
				codec: compatCodec(r.Codec, r.Encrypted), record: r.Request},
			compatItem{domain: d.Name, name: r.Name + "Response", kind: "rpc-response", pos: r.Pos, record: r.Response})
	}
	return out
}
