// The baseline for bench/api-overhead.ts: a bare Express handler on the same Node.
import express from 'express';

const app = express();
app.get('/bare', (_req, res) => {
  res.json({
    status: 'ok',
    user_id: '00000000-0000-4000-8000-000000000000',
    organization_id: '00000000-0000-4000-8000-000000000000',
  });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
