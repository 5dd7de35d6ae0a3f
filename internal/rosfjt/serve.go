//go:build ros2

package rosfjt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	control_msgs_action "github.com/telebridge/telebridge/internal/rosmsg/control_msgs/action"
	"github.com/telebridge/telebridge/pkg/trajectory"
	"github.com/telebridge/telebridge/pkg/trajectory/server"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// ActionName is the action's name under the node, as a JTC's
// <controller>/follow_joint_trajectory.
const ActionName = "~/follow_joint_trajectory"

// FeedbackPeriod is how often a goal's feedback is published (the JTC's
// action_monitor_rate, 20 Hz).
const FeedbackPeriod = 50 * time.Millisecond

// Serve serves the FollowJointTrajectory action ActionName on node with
// srv's goals: a goal srv refuses is rejected (its code and message
// logged); an accepted one preempts the running goal (which ends
// CANCELED), publishes feedback every FeedbackPeriod, and ends SUCCEEDED
// with its result, or ABORTED or CANCELED (see the package doc). A cancel
// request stops the arm where it is.
func Serve(node *rclgo.Node, srv *server.Server) (*control_msgs_action.FollowJointTrajectoryServer, error) {
	log := node.Logger()
	names := srv.Joints()
	execute := func(ctx context.Context, gh *control_msgs_action.FollowJointTrajectoryGoalHandle) (*control_msgs_action.FollowJointTrajectory_Result, error) {
		g, e := GoalOfAction(gh.Description)
		if e == nil {
			e = srv.Validate(&g, time.Now())
		}
		if e != nil {
			log.Warnf("follow_joint_trajectory goal rejected: %v", e)
			return nil, e
		}
		sender, err := gh.Accept()
		if err != nil {
			return nil, fmt.Errorf("accept: %w", err)
		}
		var mu sync.Mutex // the feedback message, filled by the server's Step
		fbMsg := control_msgs_action.NewFollowJointTrajectory_Feedback()
		var last time.Time
		h, err := srv.Submit(&g, time.Now(), func(fb trajectory.Feedback) {
			now := time.Now()
			if now.Sub(last) < FeedbackPeriod {
				return
			}
			last = now
			mu.Lock()
			defer mu.Unlock()
			FillFeedback(fbMsg, names, fb, now)
			if err := sender.Send(fbMsg); err != nil {
				log.Warnf("follow_joint_trajectory feedback: %v", err)
			}
		})
		if err != nil {
			log.Warnf("follow_joint_trajectory goal aborted at its start: %v", err)
			return nil, err
		}
		select {
		case <-h.Done():
		case <-ctx.Done(): // a cancel request (or the server closing)
			srv.Cancel(h, time.Now())
			<-h.Done()
			log.Infof("follow_joint_trajectory goal canceled")
			return nil, ctx.Err()
		}
		r := h.Result()
		res := control_msgs_action.NewFollowJointTrajectory_Result()
		res.ErrorCode, res.ErrorString = int32(r.Code), r.Msg
		if r.Status == trajectory.Succeeded {
			log.Infof("follow_joint_trajectory goal succeeded")
			return res, nil
		}
		log.Warnf("follow_joint_trajectory goal %s: %s %s", r.Status, r.Code, r.Msg)
		return nil, errors.New(r.Code.String() + ": " + r.Msg)
	}
	s, err := control_msgs_action.NewFollowJointTrajectoryServer(node, ActionName, control_msgs_action.NewFollowJointTrajectoryAction(execute), nil)
	if err != nil {
		return nil, fmt.Errorf("action server %s: %w", ActionName, err)
	}
	return s, nil
}
