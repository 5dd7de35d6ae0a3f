package console

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Describer is an optional interface of a Backend: the robot descriptions
// (URDF) of its machines, for the page's 3-D view and the balance model.
// The direct backend embeds them; the ROS one receives them from
// /robot_description.
type Describer interface {
	// RobotDescription returns machine's URDF (MachineServosila,
	// MachineFurbot); an error
	// wrapping ErrNoDescription when there is none (yet).
	RobotDescription(ctx context.Context, machine string) (string, error)
}

// ErrNoDescription is wrapped by a Describer's error when a machine has
// no robot description, or not yet.
var ErrNoDescription = errors.New("no robot description")

// The machines' names in RobotDescription and in the page's
// /robot/{machine} route.
const (
	MachineServosila = "servosila" // the Servosila Engineer
	MachineFurbot    = "furbot"    // the Furbot vehicle
)

// serveDescription serves GET /robot/{machine}: the machine's URDF as
// XML, 404 when the backend has none.
func (s *Server) serveDescription(w http.ResponseWriter, r *http.Request) {
	d, ok := s.cfg.Backend.(Describer)
	if !ok {
		http.Error(w, "this console's backend serves no robot description", http.StatusNotFound)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	doc, err := d.RobotDescription(ctx, r.PathValue("machine"))
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, ErrNoDescription) {
			code = http.StatusNotFound
		}
		http.Error(w, err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(doc))
}
