-- dynosql check: the access patterns of testdata/complaints/patterns.sql that need a
-- Scan: dynosql check refuses each (one line each) and exits 1.

-- Without that, a complaint with escalated_to but no escalation_time
-- would be missed: dynosql refuses rather than read the sparse index
-- expect: refused
SELECT complaint_id FROM complaints WHERE escalated_to = 'AgentB';

-- Find complaints by severity and state: the README's Scan with a filter on severity and current_state
-- expect: refused
SELECT complaint_id FROM complaints WHERE severity = 'P1' AND current_state = 'waiting';
