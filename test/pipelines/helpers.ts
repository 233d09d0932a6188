// What the pipeline cases share: an entry of electrode geometry, and a project to work in made
// through the suite's API.
import { client, newOrg, type TestApi } from '../harness.ts';

export const GEOMETRY = {
  element_type: 'entry',
  values: { 'Positive electrode thickness [m]': 75e-6, 'Electrode height [m]': 0.065, 'Electrode width [m]': 1.58 },
};

/** The helpers, bound to the suite's API. */
export function pipelineHelpers(api: TestApi) {
  async function setup() {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: `P ${Math.random()}` })).body;
    return { org, c, project };
  }

  return { setup };
}
