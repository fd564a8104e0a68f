/**
 * A request body parameter: whatever a server parsed (`unknown`, checked at run time like every
 * input), or an object literal checked at compile time against the command's typed input `I`,
 * so that a misspelt key (`emial`) is a compile error in a test
 * suite. Values are not constrained by the type: a test may send `ttl: '300'` to see the
 * refusal. Send a body with deliberately unknown keys as `unknown` (`body as unknown`).
 *
 * @typeParam I - the command's typed input, e.g. {@link ZoneCreateInput}
 * @typeParam B - the argument's own type, inferred
 * @category Context
 */
export type RequestBody<I, B> = B & (unknown extends B ? unknown : { readonly [K in keyof B]: K extends keyof I ? unknown : never });
