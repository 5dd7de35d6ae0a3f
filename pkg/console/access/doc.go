// Package access is the operator console's access control and audit:
// who may open the console and what each person may do, apart from the
// console's hub and panels, which only ask it.
//
//   - Operators and roles (roles.go): Role (view, drive, arm, admin),
//     Operator, the tokens file (LoadOperators) and the token strength
//     rule (CheckToken).
//   - Tokens and addresses (token.go): NewToken, the only tokens
//     CheckToken accepts, the per-port cookie (CookieName), IsLoopback.
//   - Sessions (session.go): what the cookie carries after a login, a
//     random identifier, never the token; ended by a logout (POST
//     /logout), by SessionIdle without use or SessionMax after the login,
//     with every connection it opened; at most SessionsPerOperator each.
//   - TLS (tls.go): the self-signed certificate kept in the state
//     directory (SelfSigned, LoadTLS) and its Fingerprint.
//   - The gate (gate.go): Gate checks every HTTP request (the session
//     cookie, the login by ?token= or the login form, the logout, the
//     Host of a loopback console), throttles wrong tokens per source with
//     a Bucket (never a request in a live session), and hands the
//     Identity on in the request's context (IdentityOf).
//   - The journal (journal.go): Journal writes Events to the log and the
//     audit log (AuditRecord, JSON lines), each at its event's time;
//     audit-critical kinds (Critical) a line each at a human pace, the
//     rest one per source, operator, kind and interval, the excess merged
//     with its count and first and last times.
//
// Nothing here reads a clock of its own: the gate takes a Now function,
// the journal and Bucket take now, so tests run in lock step. The
// package imports nothing of the console; pkg/console imports it.
package access
