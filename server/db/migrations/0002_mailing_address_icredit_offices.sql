CREATE TABLE "icredit_offices" (
	"id" integer PRIMARY KEY NOT NULL,
	"county_id" integer NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"name_formatted" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailing_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"contact_first_name" text NOT NULL,
	"contact_last_name" text NOT NULL,
	"contact_phone" text,
	"county_id" integer NOT NULL,
	"city_id" integer NOT NULL,
	"postal_code" text,
	"street" text NOT NULL,
	"number" text NOT NULL,
	"building" text,
	"entrance" text,
	"floor" text,
	"apartment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "icredit_offices" ADD CONSTRAINT "icredit_offices_county_id_counties_id_fk" FOREIGN KEY ("county_id") REFERENCES "public"."counties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_addresses" ADD CONSTRAINT "mailing_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_addresses" ADD CONSTRAINT "mailing_addresses_county_id_counties_id_fk" FOREIGN KEY ("county_id") REFERENCES "public"."counties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_addresses" ADD CONSTRAINT "mailing_addresses_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "icredit_offices_county_idx" ON "icredit_offices" USING btree ("county_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_addresses_user_unique" ON "mailing_addresses" USING btree ("user_id");