package servosila

// Reconfigure changes the live fields of the running driver's
// configuration (limits, minimum start velocity, timeouts, arm position
// control) between two packets. change is given the configuration in use
// and returns the next one, checked (node.ValidateLive does so for
// parameters); it runs under the driver's lock, so concurrent changes do
// not overwrite each other. The change is all or nothing: if change or the
// arm controller refuses it, the driver keeps its configuration. The
// start-up fields of the result (addresses, frame types, calibration,
// mapping, motor slots, rates) are ignored. Position targets in progress
// are kept and continue under the new gains and limits. Safe for
// concurrent use.
func (d *Driver) Reconfigure(change func(Config) (Config, error)) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	next, err := change(d.cfg)
	if err != nil {
		return err
	}
	if err := d.arm.Reconfigure(next.Arm, next.MaxJoint); err != nil {
		return err
	}
	// Only the live fields are written: the receive goroutine reads the
	// start-up ones (frame types, motor slots) without the lock.
	// TestReconfigureAppliesEveryLiveParameter keeps this list complete.
	d.cfg.MinStartVelocity = next.MinStartVelocity
	d.cfg.MaxLinear, d.cfg.MaxAngular = next.MaxLinear, next.MaxAngular
	d.cfg.MaxJoint = next.MaxJoint
	d.cfg.CommandTimeout, d.cfg.TelemetryTimeout = next.CommandTimeout, next.TelemetryTimeout
	d.cfg.Arm = next.Arm
	return nil
}
