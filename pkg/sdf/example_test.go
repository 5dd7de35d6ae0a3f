package sdf_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/sdf"
)

func ExampleParse() {
	w, err := sdf.Parse([]byte(`<sdf version="1.9"><world name="demo">
	  <model name="table"><static>true</static><pose>2 0 0 0 0 0</pose>
	    <link name="top"><pose>0 0 0.75 0 0 0</pose>
	      <collision name="c"><geometry><box><size>1.2 0.8 0.04</size></box></geometry></collision>
	      <sensor name="kinect" type="depth"/>
	    </link>
	  </model>
	</world></sdf>`), "demo.sdf", sdf.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	top, _ := w.Body("table::top")
	fmt.Println(top.Name, "at", top.Pose.Translation, "static:", top.Static)
	fmt.Println(top.Collisions[0].Geometry.Kind, top.Collisions[0].Geometry.Size)
	for _, wn := range w.Warnings {
		fmt.Println(wn.Line, wn.Element)
	}
	// Output:
	// table::top at {2 0 0.75} static: true
	// box {1.2 0.8 0.04}
	// 5 sdf/world[demo]/model[table]/link[top]/sensor[kinect]
}
