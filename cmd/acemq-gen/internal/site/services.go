package site

import (
	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemqimpl"
)

// addServices adds g's services, each use linked to its message and listed
// on the message's page too.
func (s *site) addServices(g *sysgraph.Graph) {
	if g == nil {
		return
	}
	for _, svc := range g.Services {
		sv := &serviceView{Service: svc, Path: "services/" + slug(svc.Name) + ".html"}
		s.Services = append(s.Services, sv)
		for _, r := range []struct {
			role string
			uses []sysgraph.Use
		}{{"publishes", svc.Publishes}, {"sends", svc.Sends}, {"calls", svc.Calls}, {"consumes", svc.Consumes}, {"serves", svc.Serves}} {
			for _, u := range r.uses {
				uv := useView{Role: r.role, Service: sv, Message: s.messages[msgKey(u.Domain, u.Message)], Use: u}
				sv.Uses = append(sv.Uses, uv)
				if uv.Message != nil {
					uv.Message.Uses = append(uv.Message.Uses, uv)
				}
			}
		}
	}
}

// consumersOf is every service that consumes or serves from queue.
func (s *site) consumersOf(queue string) []*serviceView {
	var out []*serviceView
	for _, sv := range s.Services {
		for _, u := range sv.Uses {
			if (u.Role == "consumes" || u.Role == "serves") && u.Message != nil && s.queueOf(sv, u) == queue {
				out = append(out, sv)
				break
			}
		}
	}
	return out
}

// queueOf is the queue u consumes from.
func (s *site) queueOf(sv *serviceView, u useView) string {
	return consumerQueue(sv.Name, u.Use, u.Message.Entry)
}

// consumerQueue is the queue service's use u of e consumes from: the one
// the graph names, e's own queue, or the service's subscriber queue.
func consumerQueue(service string, u sysgraph.Use, e generator.Entry) string {
	switch {
	case u.Queue != "":
		return u.Queue
	case e.Queue != "":
		return e.Queue
	}
	q, _ := acemqimpl.SubscriberQueue(service, e.RoutingKey)
	return q
}
