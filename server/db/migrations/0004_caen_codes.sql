CREATE TABLE "caen_codes" (
	"id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"section" text NOT NULL,
	"revision" text NOT NULL,
	"search_name" text NOT NULL,
	CONSTRAINT "caen_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE INDEX "caen_codes_search_idx" ON "caen_codes" USING btree ("search_name");