package node

import "errors"

// ErrCalibration: a calibration file is malformed or inconsistent.
// Returned errors wrap it with the field and the file.
var ErrCalibration = errors.New("bad calibration")
