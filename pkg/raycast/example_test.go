package raycast_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/raycast"
	"github.com/telebridge/telebridge/pkg/sdf"
	"gonum.org/v1/gonum/spatial/r3"
)

func ExampleScene_Cast() {
	w, err := sdf.Parse([]byte(`<sdf version="1.9"><world name="demo">
	  <model name="post"><static>true</static><pose>3 0 0.5 0 0 0</pose>
	    <link name="l"><collision name="c"><geometry><cylinder><radius>0.25</radius><length>1</length></cylinder></geometry></collision></link>
	  </model>
	</world></sdf>`), "demo.sdf", sdf.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := raycast.New(w)
	h, ok := s.Cast(r3.Vec{Z: 0.5}, r3.Vec{X: 1}, 30)
	fmt.Println(ok, h.Distance, w.Bodies[h.Body].Name, h.Normal)
	// Output: true 2.75 post::l {-1 0 0}
}
