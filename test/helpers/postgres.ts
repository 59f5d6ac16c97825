// The tests' PostgreSQL server is the bench's (one starter: a temp folder, a free port, stopped after).
export { postgresBinDir, startPostgres, type TestPostgres } from '../../bench/postgres-server.js';
