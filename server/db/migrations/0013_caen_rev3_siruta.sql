CREATE TABLE "caen_correspondence" (
	"rev2_id" integer NOT NULL,
	"rev3_id" integer NOT NULL,
	CONSTRAINT "caen_correspondence_rev2_id_rev3_id_pk" PRIMARY KEY("rev2_id","rev3_id")
);
--> statement-breakpoint
ALTER TABLE "caen_codes" DROP CONSTRAINT "caen_codes_code_unique";--> statement-breakpoint
DROP INDEX "cities_county_name_kind_unique";--> statement-breakpoint
ALTER TABLE "cities" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "cities" ADD COLUMN "label" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "cities" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "caen_code" text;--> statement-breakpoint
ALTER TABLE "caen_correspondence" ADD CONSTRAINT "caen_correspondence_rev2_id_caen_codes_id_fk" FOREIGN KEY ("rev2_id") REFERENCES "public"."caen_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "caen_correspondence" ADD CONSTRAINT "caen_correspondence_rev3_id_caen_codes_id_fk" FOREIGN KEY ("rev3_id") REFERENCES "public"."caen_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "caen_correspondence_rev3_idx" ON "caen_correspondence" USING btree ("rev3_id");--> statement-breakpoint
ALTER TABLE "cities" ADD CONSTRAINT "cities_parent_id_cities_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "caen_codes_revision_code_unique" ON "caen_codes" USING btree ("revision","code");--> statement-breakpoint
CREATE UNIQUE INDEX "cities_siruta_unique" ON "cities" USING btree ("siruta");--> statement-breakpoint
CREATE INDEX "cities_parent_idx" ON "cities" USING btree ("parent_id");--> statement-breakpoint
-- A CAEN code's id carries its revision (issue 31): the Rev.2 classes loaded so far (id = the code's
-- number) become 20000 + number, and every request's `form_data.codes` follows, so that a stored
-- Rev.2 code can never take the meaning of the Rev.3 class with the same four digits (4791). The
-- seed then loads Rev.3 (30000 + number) and the correspondence, and moves the requests not yet
-- sent to Rev.3 (moveRequestsToCurrentRevision, server/db/caen.ts).
UPDATE "caen_codes" SET "id" = "id" + 20000 WHERE "id" < 10000;
--> statement-breakpoint
UPDATE "registration_requests" r
SET "form_data" = jsonb_set(r."form_data", '{codes}', (
  SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(c) = 'number' AND (c #>> '{}')::numeric < 10000 THEN to_jsonb((c #>> '{}')::numeric + 20000) ELSE c END ORDER BY o), '[]'::jsonb)
  FROM jsonb_array_elements(r."form_data"->'codes') WITH ORDINALITY AS e(c, o)
))
WHERE jsonb_typeof(r."form_data"->'codes') = 'array' AND jsonb_array_length(r."form_data"->'codes') > 0;
--> statement-breakpoint
-- Until the seed writes the labels of the full register, a locality is written by its name.
UPDATE "cities" SET "label" = "name" WHERE "label" = '';
