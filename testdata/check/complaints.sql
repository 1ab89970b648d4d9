-- dynosql check: the access patterns of testdata/complaints/patterns.sql that dynosql
-- serves with key-based requests (dynosql check exits 0 on this file).

-- Get complaint metadata: GetItem PK=<ComplaintID>, SK="metadata"
SELECT customer_id, severity, current_state, creation_time, complaint_description FROM complaints WHERE complaint_id = 'Complaint123';

-- Get all communications for a complaint: Query PK=<ComplaintID>, begins_with(SK, "comm#")
SELECT comm_id, comm_date, complaint_state, agentID, attachments FROM communications WHERE complaint_id = 'Complaint123' ORDER BY comm_date;

-- Get all communications for a complaint: the two-year complaint, 120 of them (more than one BatchGetItem would hold)
SELECT COUNT(*) FROM communications WHERE complaint_id = 'Complaint2024';

-- Get all communications for a complaint, latest first ("Chronological Sorting: communications are automatically sorted by timestamp due to the SK format")
SELECT comm_id, comm_date, comm_text FROM communications WHERE complaint_id = 'Complaint2024' ORDER BY comm_date DESC LIMIT 1;

-- Get all communications for a complaint, one month of them: a range on the leading column of comm#{comm_date}#{comm_id} (5 rows)
SELECT comm_id, comm_date FROM communications WHERE complaint_id = 'Complaint2024' AND comm_date >= '2024-05-01' AND comm_date < '2024-06-01' ORDER BY comm_date;

-- Get all communications for a complaint, one month of them, as a prefix (5 rows)
SELECT comm_id, comm_date FROM communications WHERE complaint_id = 'Complaint2024' AND comm_date LIKE '2024-05%' ORDER BY comm_date;

-- Get all communications for a complaint, one month of them, with BETWEEN (5 rows)
SELECT comm_id FROM communications WHERE complaint_id = 'Complaint2024' AND comm_date BETWEEN '2024-05-01T00:00:00' AND '2024-05-31T23:59:59' ORDER BY comm_date;

-- Get all communications for a complaint, the three before a date
SELECT comm_id, comm_date FROM communications WHERE complaint_id = 'Complaint2024' AND comm_date < '2024-01-01' ORDER BY comm_date DESC LIMIT 3;

-- Get a specific complaint with all its communications (the README's example: GetItem and Query on one partition)
SELECT c.severity, c.current_state, m.comm_id, m.complaint_state FROM complaints c LEFT JOIN communications m ON m.complaint_id = c.complaint_id WHERE c.complaint_id = 'Complaint1444' ORDER BY m.comm_date;

-- Get a specific complaint with all its communications: a complaint with none
SELECT c.severity, m.comm_id FROM complaints c LEFT JOIN communications m ON m.complaint_id = c.complaint_id WHERE c.complaint_id = 'Complaint0987';

-- Get all complaints for a customer: Customer_Complaint_GSI, customer_id=<CustomerID> (16 rows)
SELECT complaint_id, severity, current_state FROM complaints WHERE customer_id = 'custXYZ' ORDER BY complaint_id;

-- Get all complaints for a customer whose id is not ASCII
SELECT complaint_id, severity FROM complaints WHERE customer_id = 'custÖZL';

-- Get all complaints for a customer, with how many communications each has
SELECT c.complaint_id, COUNT(m.comm_id) AS comms FROM complaints c LEFT JOIN communications m ON m.complaint_id = c.complaint_id WHERE c.customer_id = 'custXYZ' GROUP BY c.complaint_id ORDER BY c.complaint_id;

-- Find complaints escalated to an agent: Escalations_GSI, escalated_to=<AgentID> (6 rows).
-- The index is sparse: it holds only the complaints that have both
-- escalated_to and escalation_time, so the WHERE keeps to those.
SELECT complaint_id, escalation_time, severity, customer_id FROM complaints WHERE escalated_to = 'AgentB' AND escalation_time IS NOT NULL ORDER BY escalation_time;

-- Find complaints escalated to an agent since a date (a range on the index sort key)
SELECT complaint_id, escalation_time FROM complaints WHERE escalated_to = 'AgentB' AND escalation_time >= '2023-06-01' ORDER BY escalation_time;

-- Find complaints escalated to an agent who has none
SELECT complaint_id FROM complaints WHERE escalated_to = 'AgentH' AND escalation_time IS NOT NULL;

-- View agent's communication history: Agents_Comments_GSI, agentID=<AgentID>, latest 20 of 342
SELECT complaint_id, comm_id, comm_date FROM communications WHERE agentID = 'AgentA' ORDER BY comm_date DESC LIMIT 20;

-- View agent's communication history for one month (20 rows)
SELECT complaint_id, comm_id, comm_date FROM communications WHERE agentID = 'AgentA' AND comm_date LIKE '2024-05%' ORDER BY comm_date;

-- View agent's communication history with the complaints' severities: 115 distinct complaint keys read back
SELECT c.severity, COUNT(*) AS comms FROM communications m JOIN complaints c ON c.complaint_id = m.complaint_id WHERE m.agentID = 'AgentA' GROUP BY c.severity ORDER BY c.severity;

-- Track complaint state changes: Query begins_with(SK, "comm#"), filter on complaint_state
SELECT comm_id, comm_date FROM communications WHERE complaint_id = 'Complaint2001' AND complaint_state = 'resolved' ORDER BY comm_date;

-- Track complaint state changes: when each state was first reached
SELECT complaint_state, MIN(comm_date) AS since FROM communications WHERE complaint_id = 'Complaint2001' GROUP BY complaint_state ORDER BY since;

-- Creating complaints
INSERT INTO complaints (complaint_id, customer_id, current_state, creation_time, severity, complaint_description) VALUES ('Complaint3001', 'custÖZL', 'waiting', '2025-07-01T09:00:00', 'P2', 'Invoice #7781 shows the wrong address');

-- Tracking communications: an agent's (into Agents_Comments_GSI)
INSERT INTO communications (complaint_id, comm_id, comm_date, complaint_state, comm_text, agentID) VALUES ('Complaint3001', 'comm9001', '2025-07-01T09:30:00', 'assigned', 'Ticket #3001 assigned to billing.', 'AgentH');

-- Tracking communications: the customer's (no agentID, so not in Agents_Comments_GSI)
INSERT INTO communications (complaint_id, comm_id, comm_date, complaint_state, comm_text) VALUES ('Complaint3001', 'comm9002', '2025-07-02T10:00:00', 'assigned', 'Any news?');

-- Managing escalations: escalate (the complaint enters Escalations_GSI)
UPDATE complaints SET escalated_to = 'AgentH', escalation_time = '2025-07-03T08:00:00', current_state = 'investigating' WHERE complaint_id = 'Complaint3001';

-- Managing escalations: withdraw an escalation (the complaint leaves Escalations_GSI)
UPDATE complaints SET escalated_to = NULL, escalation_time = NULL WHERE complaint_id = 'Complaint1444';

-- Managing escalations: clear only the agent; escalation_time stays, the item leaves the index all the same
UPDATE complaints SET escalated_to = NULL WHERE complaint_id = 'Complaint1321';

-- Monitoring complaint status changes: close a complaint
UPDATE complaints SET current_state = 'resolved' WHERE complaint_id = 'Complaint2024';

-- Monitoring complaint status changes: every communication of a complaint still investigating (a partition, one conditional update per item)
UPDATE communications SET complaint_state = 'resolved' WHERE complaint_id = 'Complaint123' AND complaint_state = 'investigating';

-- Tracking communications: remove the customer's message
DELETE FROM communications WHERE complaint_id = 'Complaint3001' AND comm_date = '2025-07-02T10:00:00' AND comm_id = 'comm9002';

-- Find complaints escalated to an agent, after the writes: AgentH has Complaint3001, AgentB lost two
SELECT complaint_id, escalated_to FROM complaints WHERE escalated_to IN ('AgentB', 'AgentH') AND escalation_time IS NOT NULL ORDER BY complaint_id;
