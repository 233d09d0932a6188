// Fields of a Temporal SDK log entry for the JSON log. The SDK passes failures (a failed
// workflow, a failed activity attempt) as Error objects, which JSON shows as `{}`; the log
// keeps their class, message, failure type and cause instead. Stacks are left out: they point
// into the SDK or the workflow bundle, and the workflow id in the entry locates the failure.
export function sdkLogFields(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta ?? {}))
    fields[key] = value instanceof Error ? errorFields(value) : value;
  return fields;
}

function errorFields(err: Error): Record<string, unknown> {
  const type = (err as { type?: unknown }).type;
  return {
    name: err.name,
    message: err.message,
    ...(typeof type === 'string' ? { type } : {}),
    ...(err.cause instanceof Error ? { cause: errorFields(err.cause) } : {}),
  };
}
