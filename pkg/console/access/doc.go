// Package access is the operator console's access control and audit:
// who may open the console and what each person may do, apart from the
// console's hub and panels, which only ask it.
//
//   - Operators and roles (roles.go): Role (view, drive, arm, admin),
//     Operator, the tokens file (LoadOperators) and the token strength
//     rule (CheckToken, MinTokenBits).
//   - Tokens and addresses (token.go): NewToken, the per-port cookie
//     (CookieName), IsLoopback.
//   - TLS (tls.go): the self-signed certificate kept in the state
//     directory (SelfSigned, LoadTLS) and its Fingerprint.
//   - The gate (gate.go): Gate checks every HTTP request (cookie, ?token=,
//     the login form, the Host of a loopback console), throttles wrong
//     tokens per source with a Bucket, and hands the Identity on in the
//     request's context (IdentityOf).
//   - The journal (journal.go): Journal writes Events to the log and the
//     audit log (AuditRecord, JSON lines), rate limited per source,
//     operator and kind.
//
// Nothing here reads a clock of its own: the gate takes a Now function,
// the journal and Bucket take now, so tests run in lock step. The
// package imports nothing of the console; pkg/console imports it.
package access
