CREATE TABLE "consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"version" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "file_deletions" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"day" date NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"summary" jsonb,
	CONSTRAINT "job_runs_job_day_pk" PRIMARY KEY("job","day")
);
--> statement-breakpoint
CREATE TABLE "retained_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"storage_key" text,
	"content_type" text,
	"keep_until" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"last_action_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity_sessions" ADD COLUMN "media_erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_notices" ADD CONSTRAINT "retention_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_user_idx" ON "consents" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "retained_records_keep_until_idx" ON "retained_records" USING btree ("keep_until");--> statement-breakpoint
CREATE INDEX "retained_records_subject_idx" ON "retained_records" USING btree ("subject");--> statement-breakpoint
CREATE UNIQUE INDEX "retention_notices_unique" ON "retention_notices" USING btree ("user_id","kind","last_action_at");--> statement-breakpoint
INSERT INTO "consents" ("user_id", "kind", "version", "accepted_at", "withdrawn_at")
SELECT "id", 'terms', 'înainte de 28.11.2026 (versiunea nu era înregistrată)', "created_at", NULL FROM "users";--> statement-breakpoint
INSERT INTO "consents" ("user_id", "kind", "version", "accepted_at", "withdrawn_at")
SELECT "id", 'marketing', 'înainte de 28.11.2026 (versiunea nu era înregistrată)', "created_at", "unsubscribed_at" FROM "users" WHERE "marketing_accepted";
