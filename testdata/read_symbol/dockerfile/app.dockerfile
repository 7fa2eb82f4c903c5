ARG BASE=node:20
FROM ${BASE} as deps
COPY package*.json ./
RUN npm ci

FROM deps AS test
RUN npm test

FROM deps
CMD ["node", "server.js"]
