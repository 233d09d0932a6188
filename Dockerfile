# One image for the API, the TypeScript worker and the Python worker (docker-compose.yml).
FROM node:24-bookworm
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-venv && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY pyworker/requirements.txt pyworker/requirements.txt
RUN python3 -m venv /app/.tools/venv && /app/.tools/venv/bin/pip install --no-cache-dir -r pyworker/requirements.txt
COPY . .
ENV NODE_OPTIONS=--disable-warning=ExperimentalWarning
EXPOSE 8000
CMD ["node", "api/main.ts"]
