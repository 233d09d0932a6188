// What the workers would be sent, past what Temporal's 2 MB payloads or a worker's mesh can take:
// fine meshes, long drive cycles, large fit data and model files.
import { batch, jsonRequest, MB, multipart, postMultipart, type HostileInput } from './send.ts';
import { issueIs, locIs } from './checks.ts';

/**
 * Inline fit data: `rows` rows of Time [s], Voltage [V], Current [A] and `extra` more columns, numbers of 17 or so
 * digits.
 */
function fitData(rows: number, extra = 0): Record<string, number[]> {
  const column = () => Array.from({ length: rows }, () => Math.random());
  const data: Record<string, number[]> = {
    'Time [s]': Array.from({ length: rows }, (_, i) => i),
    'Voltage [V]': column(),
    'Current [A]': column(),
  };
  for (let i = 0; i < extra; i++) data[`Extra ${i}`] = column();
  return data;
}
const FIT_PARAMETERS = { 'Negative particle radius [m]': { bounds: [1e-6, 1e-5], initial_value: 5e-6 } };
const pipeline = (element: Record<string, unknown>) =>
  jsonRequest('/pipelines', (t) => ({ project_id: t.projectId, elements: { fit: element } }));

export function workerPayloadInputs(): HostileInput[] {
  return [
    // What the workers are sent must fit Temporal's 2 MB payloads, and a mesh be of a size a worker can build.
    {
      name: 'simulation model with var_pts of 1,000,000,000',
      status: 422,
      check: issueIs(
        'less_than_equal',
        'body',
        'parameterized_model',
        'model',
        'simulation_settings',
        'var_pts',
        'x_n',
      ),
      prepare: batch({
        parameterized_model: { model: { type: 'SPM', simulation_settings: { var_pts: { x_n: 1_000_000_000 } } } },
      }),
    },
    {
      name: 'model config with var_pts of 1,000,000',
      status: 422,
      check: issueIs('maximum', 'body', 'config', 'simulation_settings', 'var_pts', 'r_n'),
      prepare: jsonRequest('/models', () => ({
        name: 'fine mesh',
        config: { type: 'SPM', simulation_settings: { var_pts: { r_n: 1_000_000 } } },
      })),
    },
    {
      name: 'drive cycle of 150,000 pairs',
      status: 422,
      check: (body) => {
        locIs('body', 'protocol_experiment', 'protocol', 'steps', 0, 'DriveCycle', 'data')(body);
        if (!body.detail[0].msg.endsWith('has 150000 pairs; at most 100000'))
          throw new Error(`not the size limit: ${body.detail[0].msg}`);
        // The megabyte refused is not echoed back as the issue's input.
        if ('input' in body.detail[0]) throw new Error('the refused protocol was echoed back');
      },
      prepare: batch({
        protocol_experiment: {
          protocol: {
            steps: [{ DriveCycle: { mode: 'current', data: Array.from({ length: 150_000 }, (_, i) => [i, 1]) } }],
          },
        },
      }),
    },
    {
      name: 'data_fit with 1,000 rows of 100 columns (2 MB)',
      status: 422,
      check: issueIs('too_long', 'body', 'elements', 'fit', 'data'),
      prepare: pipeline({
        element_type: 'data_fit',
        model: { type: 'SPM' },
        parameters: FIT_PARAMETERS,
        data: fitData(1000, 97),
      }),
    },
    {
      name: 'array_data_fit with 50 data sets of 1,000 rows (3 MB)',
      status: 422,
      check: issueIs('too_long', 'body', 'elements', 'fit', 'datasets'),
      prepare: pipeline({
        element_type: 'array_data_fit',
        model: { type: 'SPM' },
        parameters: FIT_PARAMETERS,
        independent_variable: 'Ambient temperature [K]',
        datasets: Array.from({ length: 50 }, (_, i) => ({ value: 280 + i, data: fitData(1000) })),
      }),
    },
    {
      name: 'data_fit with a model of var_pts 10,000',
      status: 422,
      check: issueIs('less_than_equal', 'body', 'elements', 'fit', 'model', 'simulation_settings', 'var_pts', 'r_p'),
      prepare: pipeline({
        element_type: 'data_fit',
        model: { type: 'SPM', simulation_settings: { var_pts: { r_p: 10_000 } } },
        parameters: FIT_PARAMETERS,
        data: fitData(10),
      }),
    },
    {
      name: 'custom model file of 2 MB',
      status: 422,
      check: issueIs('too_long', 'body', 'file'),
      prepare: async (t) => {
        const body = await multipart([['name', 'big model']], {
          bytes: JSON.stringify({ type: 'SPM', description: 'x'.repeat(2 * MB) }),
          name: 'model.json',
        });
        return () => postMultipart(t, '/models/upload-custom', body);
      },
    },
  ];
}
