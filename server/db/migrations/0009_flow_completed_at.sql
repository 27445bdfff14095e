-- The end of a flow is now said by the flow file (a last step whose submit leaves for the dashboard)
-- and recorded as form_data.flow_completed_at by the step route. Requests of the existing PFA that
-- signed before this marker existed were done by that signature: they get its time.
UPDATE "registration_requests"
SET "form_data" = "form_data" || jsonb_build_object('flow_completed_at', "form_data"->>'signed_at')
WHERE "registration_type" = 1 AND "form_data" ? 'signed_at' AND NOT ("form_data" ? 'flow_completed_at');
