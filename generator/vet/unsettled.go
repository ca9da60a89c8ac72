package vet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Unsettled reports a handler (a function literal or declaration of type
// acemq.Handler[T]: func(context.Context, acemq.Message[T]) acemq.Ack) with
// a return of the zero acemq.Ack{}. The zero Ack is Accept, so a path that meant to retry,
// reject or park the message acknowledges it instead, and a reader cannot
// tell which was meant: name the outcome with Accept, Retry, Reject, Park or
// InProgress.
var Unsettled = &analysis.Analyzer{
	Name: "unsettled",
	Doc: "report handlers that return the zero acemq.Ack{}\n\n" +
		"The zero Ack acknowledges the message: say acemq.Accept(), Retry, Reject, Park or InProgress.",
	Run: honouringIgnores(runUnsettled),
}

func runUnsettled(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(fb funcBody) {
		if !isHandler(fb.sig) {
			return
		}
		inspectOwn(fb.body, func(n ast.Node) bool {
			if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 && isZeroAck(pass, ret.Results[0]) {
				pass.Reportf(ret.Results[0].Pos(), "the handler returns the zero acemq.Ack{}, which accepts the message: say acemq.Accept(), Retry, Reject, Park or InProgress")
			}
			return true
		})
	})
	return nil, nil
}

// isHandler reports whether sig is func(context.Context, acemq.Message[T]) acemq.Ack.
func isHandler(sig *types.Signature) bool {
	ps, rs := sig.Params(), sig.Results()
	return ps.Len() == 2 && rs.Len() == 1 && isNamed(ps.At(0).Type(), "context", "Context") &&
		isNamed(ps.At(1).Type(), acemqPath, "Message") && isNamed(rs.At(0).Type(), acemqPath, "Ack")
}

// isZeroAck reports whether e is the composite literal acemq.Ack{}.
func isZeroAck(pass *analysis.Pass, e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	return ok && len(lit.Elts) == 0 && isNamed(pass.TypesInfo.TypeOf(lit), acemqPath, "Ack")
}
