// Checks of a hostile input's answer beyond its status (each throws when the answer is wrong).
export const invalidProtocol = (body: any) => {
  if (body.valid !== false) throw new Error(`expected valid: false, got ${JSON.stringify(body).slice(0, 200)}`);
};
export const locIs =
  (...loc: unknown[]) =>
  (body: any) => {
    const got = JSON.stringify(body.detail?.[0]?.loc);
    if (got !== JSON.stringify(loc))
      throw new Error(`expected loc ${JSON.stringify(loc)}, got ${JSON.stringify(body).slice(0, 300)}`);
  };
/** The first issue's loc and type (a limit's own type, so that another refusal at the same field does not pass). */
export const issueIs =
  (type: string, ...loc: unknown[]) =>
  (body: any) => {
    locIs(...loc)(body);
    if (body.detail[0].type !== type)
      throw new Error(`expected type ${type}, got ${JSON.stringify(body).slice(0, 300)}`);
  };
export const codeIs = (code: string) => (body: any) => {
  if (body.error_code !== code) throw new Error(`expected ${code}, got ${JSON.stringify(body).slice(0, 300)}`);
};
