-- pgbench script: one worker's claim of 50 due sources and their completion, as PostgresFleetSchedule issues
-- them (the generation check's subquery kept, always true here: the benchmark registers no manifest).
-- See BENCHMARKS.md, "The fleet", for the setup and the command.
WITH due AS (
    SELECT source_id FROM fleet_source
    WHERE due_at <= EXTRACT(EPOCH FROM now())::double precision
      AND (claim_until IS NULL OR claim_until < EXTRACT(EPOCH FROM now())::double precision)
      AND (SELECT generation FROM fleet_manifest) IS NOT DISTINCT FROM (SELECT generation FROM fleet_manifest)
    ORDER BY due_at LIMIT 50
    FOR UPDATE SKIP LOCKED)
UPDATE fleet_source f SET claimed_by = 'w' || :client_id, claim_until = EXTRACT(EPOCH FROM now())::double precision + 120
FROM due WHERE f.source_id = due.source_id;
UPDATE fleet_source SET claimed_by = NULL, claim_until = NULL, due_at = EXTRACT(EPOCH FROM now())::double precision + 900,
    failures = 0, last_status = 'ok', last_finished_at = EXTRACT(EPOCH FROM now())::double precision
WHERE claimed_by = 'w' || :client_id;
