// The one `any` the tests keep: JSON as JSON.parse gives it.

/**
 * A document a test reads from JSON (a service's answer, the CLI's --json output, a state file) and
 * checks with expect(): the expectation is the check of its shape, so a cast to a typed shape would
 * claim the very thing the test is there to prove. It is JSON.parse's own result type (any), named.
 */
export type ParsedJson = ReturnType<typeof JSON.parse>;
