// Package ignore holds the ignore directive's cases.
package ignore

import "github.com/acemq/acemq-gen/runtime/acemq"

func headers(c *acemq.PublishContext) {
	//acemqvet:ignore reservedheader the test proves the publish fails
	c.SetHeader("x-acemq-id", "a")
	c.SetHeader("x-acemq-id", "b") //acemqvet:ignore interceptorpanic,reservedheader same line, listed second
	//acemqvet:ignore unsettled names another analyzer
	c.SetHeader("x-acemq-id", "c") // want `SetHeader`
	//acemqvet:ignore reservedheader

	c.SetHeader("x-acemq-id", "d") // want `SetHeader`
}
