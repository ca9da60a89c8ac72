package generator

// compatRPCItems lists the two payloads of each RPC of d. The model has no
// RPCs yet, so there are none.
func compatRPCItems(*Domain) []compatItem { return nil }
