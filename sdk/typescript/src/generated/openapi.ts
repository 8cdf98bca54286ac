/**
 * Generated from the daemon's OpenAPI document by sdk/typescript/scripts/generate-types.ts: do not edit.
 * Regenerate after changing a route schema (test S10 fails until then).
 */
/* eslint-disable */

export interface paths {
  "/healthz": {
    /** Liveness */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            ok: boolean;
          };
        };
      };
    };
  };
  "/v1/projects": {
    /** List projects */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "project";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              name: string;
              description: string | null;
              /** True for the organisation's "API Runs" project, which cannot be deleted. */
              is_default: boolean;
              created_at: string;
              updated_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Create a project */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody: {
        "application/json": {
          name: string;
          description?: string | null;
        };
      };
      responses: {
        "201": {
          "application/json": {
            id: string;
            object: "project";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            description: string | null;
            /** True for the organisation's "API Runs" project, which cannot be deleted. */
            is_default: boolean;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/projects/{id}": {
    /** Get a project */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `proj_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "project";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            description: string | null;
            /** True for the organisation's "API Runs" project, which cannot be deleted. */
            is_default: boolean;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
    /** Delete a project with its jobs and their schedules; its runs stay readable */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `proj_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "project";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
    /** Update a project */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `proj_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          name?: string;
          description?: string | null;
        };
      };
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "project";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            description: string | null;
            /** True for the organisation's "API Runs" project, which cannot be deleted. */
            is_default: boolean;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/jobs": {
    /** List jobs */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
          /** Only jobs of this project. */
          project_id?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "job";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              project_id: string;
              name: string;
              description: string | null;
              prompt: string;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              input_schema: Record<string, unknown> | null;
              output_schema: Record<string, unknown> | null;
              connections: string[];
              timeout_s: number | null;
              /** The most each of its runs may cost in USD, unless a run gives its own; null: the API key's default, if any. */
              max_cost_usd: number | null;
              human_timeout_s: number | null;
              human_email: string | null;
              require_approval: boolean;
              schedule: {
                /** Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field). */
                cron: string;
                /** IANA time zone the expression is read in. */
                timezone: string;
                /** Inputs every scheduled run of the job receives. */
                inputs?: Record<string, unknown>;
                /** Webhook target for the scheduled runs. */
                callback_url?: string | null;
                /** false pauses the schedule without deleting it. */
                enabled: boolean;
                /** Why the daemon paused the schedule (a change of the job left its inputs invalid); null otherwise. */
                paused_reason: string | null;
              } | null;
              /** Whether its runs record the browser unless a run says otherwise. */
              recording: boolean;
              /** The proxy connection its runs leave through unless they name their own. */
              proxy: string | null;
              /** Whether its runs replay its recipe ('auto') or run the agent every step ('off', the default). */
              replay: "auto" | "off";
              /** The sandbox host label its runs ask for unless they name their own; null: any host. */
              sandbox_label: string | null;
              /** The profile (saved login) its runs start with unless they name their own; null: none. */
              profile: string | null;
              /** Whether its runs write their profile back when they succeed (read_write, the default) or only load it (read), unless a run says otherwise. */
              profile_mode: "read" | "read_write";
              /** The profile its runs save their browser's state to when they succeed, unless they name their own; null: none. */
              save_profile: string | null;
              /** How its runs' agent works a page unless a run names its own: dom (the browser tool) or computer (the model's own computer-use tool). */
              action_space: "dom" | "computer";
              created_at: string;
              updated_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Create a job (a reusable task template) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody: {
        "application/json": {
          project_id: string;
          name: string;
          description?: string | null;
          prompt: string;
          /** One of haiku, sonnet, opus; default sonnet. */
          model?: "haiku" | "sonnet" | "opus";
          input_schema?: Record<string, unknown> | null;
          output_schema?: Record<string, unknown> | null;
          connections?: (string[] | null);
          timeout_s?: (number | null);
          max_cost_usd?: (number | null);
          human_timeout_s?: (number | null);
          human_email?: (string | null);
          /** A form is submitted only after a person approved it: the agent must ask with request_human, kind approve. */
          require_approval?: boolean;
          schedule?: {
            /** Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field). */
            cron: string;
            /** IANA time zone the expression is read in. */
            timezone?: string;
            /** Inputs every scheduled run of the job receives. */
            inputs?: Record<string, unknown>;
            /** Webhook target for the scheduled runs. */
            callback_url?: string | null;
            /** false pauses the schedule without deleting it. */
            enabled?: boolean;
            /** Read only: why the daemon paused the schedule. Accepted in requests (so a schedule read can be sent back) and ignored. */
            paused_reason?: string | null;
          } | null;
          /** false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run. */
          recording?: boolean;
          proxy?: (string | null);
          /** auto: a run replays the job's recipe (recorded from an earlier run that succeeded) without the model, and the agent takes over where the page changed; off: the agent runs every step. A job's default is off (docs/api.md, Replay). */
          replay?: "auto" | "off";
          sandbox_label?: (string | null);
          profile?: (string | null);
          /** read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it. */
          profile_mode?: "read" | "read_write";
          save_profile?: (string | null);
          /** dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's. */
          action_space?: "dom" | "computer";
        };
      };
      responses: {
        "201": {
          "application/json": {
            id: string;
            object: "job";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            project_id: string;
            name: string;
            description: string | null;
            prompt: string;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            input_schema: Record<string, unknown> | null;
            output_schema: Record<string, unknown> | null;
            connections: string[];
            timeout_s: number | null;
            /** The most each of its runs may cost in USD, unless a run gives its own; null: the API key's default, if any. */
            max_cost_usd: number | null;
            human_timeout_s: number | null;
            human_email: string | null;
            require_approval: boolean;
            schedule: {
              /** Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field). */
              cron: string;
              /** IANA time zone the expression is read in. */
              timezone: string;
              /** Inputs every scheduled run of the job receives. */
              inputs?: Record<string, unknown>;
              /** Webhook target for the scheduled runs. */
              callback_url?: string | null;
              /** false pauses the schedule without deleting it. */
              enabled: boolean;
              /** Why the daemon paused the schedule (a change of the job left its inputs invalid); null otherwise. */
              paused_reason: string | null;
            } | null;
            /** Whether its runs record the browser unless a run says otherwise. */
            recording: boolean;
            /** The proxy connection its runs leave through unless they name their own. */
            proxy: string | null;
            /** Whether its runs replay its recipe ('auto') or run the agent every step ('off', the default). */
            replay: "auto" | "off";
            /** The sandbox host label its runs ask for unless they name their own; null: any host. */
            sandbox_label: string | null;
            /** The profile (saved login) its runs start with unless they name their own; null: none. */
            profile: string | null;
            /** Whether its runs write their profile back when they succeed (read_write, the default) or only load it (read), unless a run says otherwise. */
            profile_mode: "read" | "read_write";
            /** The profile its runs save their browser's state to when they succeed, unless they name their own; null: none. */
            save_profile: string | null;
            /** How its runs' agent works a page unless a run names its own: dom (the browser tool) or computer (the model's own computer-use tool). */
            action_space: "dom" | "computer";
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/jobs/{id}": {
    /** Get a job */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "job";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            project_id: string;
            name: string;
            description: string | null;
            prompt: string;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            input_schema: Record<string, unknown> | null;
            output_schema: Record<string, unknown> | null;
            connections: string[];
            timeout_s: number | null;
            /** The most each of its runs may cost in USD, unless a run gives its own; null: the API key's default, if any. */
            max_cost_usd: number | null;
            human_timeout_s: number | null;
            human_email: string | null;
            require_approval: boolean;
            schedule: {
              /** Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field). */
              cron: string;
              /** IANA time zone the expression is read in. */
              timezone: string;
              /** Inputs every scheduled run of the job receives. */
              inputs?: Record<string, unknown>;
              /** Webhook target for the scheduled runs. */
              callback_url?: string | null;
              /** false pauses the schedule without deleting it. */
              enabled: boolean;
              /** Why the daemon paused the schedule (a change of the job left its inputs invalid); null otherwise. */
              paused_reason: string | null;
            } | null;
            /** Whether its runs record the browser unless a run says otherwise. */
            recording: boolean;
            /** The proxy connection its runs leave through unless they name their own. */
            proxy: string | null;
            /** Whether its runs replay its recipe ('auto') or run the agent every step ('off', the default). */
            replay: "auto" | "off";
            /** The sandbox host label its runs ask for unless they name their own; null: any host. */
            sandbox_label: string | null;
            /** The profile (saved login) its runs start with unless they name their own; null: none. */
            profile: string | null;
            /** Whether its runs write their profile back when they succeed (read_write, the default) or only load it (read), unless a run says otherwise. */
            profile_mode: "read" | "read_write";
            /** The profile its runs save their browser's state to when they succeed, unless they name their own; null: none. */
            save_profile: string | null;
            /** How its runs' agent works a page unless a run names its own: dom (the browser tool) or computer (the model's own computer-use tool). */
            action_space: "dom" | "computer";
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
    /** Delete a job and its schedule */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "job";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
    /** Update a job */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          name?: string;
          description?: string | null;
          prompt?: string;
          /** One of haiku, sonnet, opus; default sonnet. */
          model?: "haiku" | "sonnet" | "opus";
          input_schema?: Record<string, unknown> | null;
          output_schema?: Record<string, unknown> | null;
          connections?: (string[] | null);
          timeout_s?: (number | null);
          max_cost_usd?: (number | null);
          human_timeout_s?: (number | null);
          human_email?: (string | null);
          /** A form is submitted only after a person approved it: the agent must ask with request_human, kind approve. */
          require_approval?: boolean;
          schedule?: {
            /** Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field). */
            cron: string;
            /** IANA time zone the expression is read in. */
            timezone?: string;
            /** Inputs every scheduled run of the job receives. */
            inputs?: Record<string, unknown>;
            /** Webhook target for the scheduled runs. */
            callback_url?: string | null;
            /** false pauses the schedule without deleting it. */
            enabled?: boolean;
            /** Read only: why the daemon paused the schedule. Accepted in requests (so a schedule read can be sent back) and ignored. */
            paused_reason?: string | null;
          } | null;
          /** false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run. */
          recording?: boolean;
          proxy?: (string | null);
          /** auto: a run replays the job's recipe (recorded from an earlier run that succeeded) without the model, and the agent takes over where the page changed; off: the agent runs every step. A job's default is off (docs/api.md, Replay). */
          replay?: "auto" | "off";
          sandbox_label?: (string | null);
          profile?: (string | null);
          /** read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it. */
          profile_mode?: "read" | "read_write";
          save_profile?: (string | null);
          /** dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's. */
          action_space?: "dom" | "computer";
        };
      };
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "job";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            project_id: string;
            name: string;
            description: string | null;
            prompt: string;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            input_schema: Record<string, unknown> | null;
            output_schema: Record<string, unknown> | null;
            connections: string[];
            timeout_s: number | null;
            /** The most each of its runs may cost in USD, unless a run gives its own; null: the API key's default, if any. */
            max_cost_usd: number | null;
            human_timeout_s: number | null;
            human_email: string | null;
            require_approval: boolean;
            schedule: {
              /** Cron expression with 5 fields (minute resolution) or 6 fields (leading seconds field). */
              cron: string;
              /** IANA time zone the expression is read in. */
              timezone: string;
              /** Inputs every scheduled run of the job receives. */
              inputs?: Record<string, unknown>;
              /** Webhook target for the scheduled runs. */
              callback_url?: string | null;
              /** false pauses the schedule without deleting it. */
              enabled: boolean;
              /** Why the daemon paused the schedule (a change of the job left its inputs invalid); null otherwise. */
              paused_reason: string | null;
            } | null;
            /** Whether its runs record the browser unless a run says otherwise. */
            recording: boolean;
            /** The proxy connection its runs leave through unless they name their own. */
            proxy: string | null;
            /** Whether its runs replay its recipe ('auto') or run the agent every step ('off', the default). */
            replay: "auto" | "off";
            /** The sandbox host label its runs ask for unless they name their own; null: any host. */
            sandbox_label: string | null;
            /** The profile (saved login) its runs start with unless they name their own; null: none. */
            profile: string | null;
            /** Whether its runs write their profile back when they succeed (read_write, the default) or only load it (read), unless a run says otherwise. */
            profile_mode: "read" | "read_write";
            /** The profile its runs save their browser's state to when they succeed, unless they name their own; null: none. */
            save_profile: string | null;
            /** How its runs' agent works a page unless a run names its own: dom (the browser tool) or computer (the model's own computer-use tool). */
            action_space: "dom" | "computer";
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/jobs/{id}/skipped_firings": {
    /** List the firings of a job's schedule that started no run, newest first */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page (an event_id). */
          cursor?: number;
        };
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              object: "skipped_firing";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              /** Its id in the event log (schedule.skipped); the cursor of the list. */
              event_id: number;
              job_id: string;
              /** When the firing was scheduled for. */
              slot: string;
              /** What refused the run, as the API would have answered: missing_input, daily_cap_reached, ... */
              code: string;
              message: string;
              param: string | null;
              created_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
  };
  "/v1/jobs/{id}/recipe": {
    /** Get a job's recipe (its newest version) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "recipe";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            job_id: string;
            /** Counts up from 1 with every run that recorded the recipe anew. */
            version: number;
            /** The run it was recorded from. */
            source_run_id: string;
            created_at: string;
            format: 1;
            steps: {
              tool: "browser" | "code";
              action?: string;
              url?: string;
              /** type: what is typed; scroll: the text scrolled to; wait: the text waited for; dialog: a prompt's answer. */
              text?: string;
              submit?: boolean;
              /** press: a key or a chord such as Control+A. */
              key?: string;
              direction?: "up" | "down" | "left" | "right";
              amount?: number;
              /** The element acted on (drag: the one dragged; scroll: the area scrolled). */
              locators?: {
                kind: "role" | "text" | "css";
                selector?: string;
                text?: string;
              }[];
              /** drag: where it was dropped. */
              to_locators?: {
                kind: "role" | "text" | "css";
                selector?: string;
                text?: string;
              }[];
              /** select: the options, by label or value. */
              values?: string[];
              /** click: a button other than the left one. */
              button?: "right" | "middle";
              /** click: a double click. */
              double?: boolean;
              /** click: keys held. */
              modifiers?: ("Alt" | "Control" | "Meta" | "Shift")[];
              /** wait: until the text is gone. */
              gone?: boolean;
              /** wait: at most this long (or this long, without a text). */
              seconds?: number;
              /** dialog: accepted (true) or dismissed. */
              accept?: boolean;
              /** tab: which tab, as results list them. */
              index?: number;
              /** tab: closed rather than switched to. */
              close?: boolean;
              /** upload: the run's input files it sets, by their place in the run's `files` (0-based) and the content type the recorded run uploaded there; never a file's name or bytes. */
              files?: {
                index: number;
                content_type: string;
              }[];
              /** The page the step expects: its URL pattern (`*` for an id-like path segment, query parameters by name), its title when the page is the same for every input, and text that must be on it. */
              page?: {
                url: string;
                title: string | null;
                key_text: string[];
              } | null;
              language?: "bash" | "python" | "node";
              code?: string;
            }[];
            /** How each member of the result is read, by member name. */
            extraction: Record<string, {
                from: "page_text" | "code_output";
                type: "string" | "number" | "boolean";
                prefix?: string;
                suffix?: string;
                before?: string | null;
                step?: number;
                key?: string;
              }>;
          };
        };
      };
    };
    /** Delete a job's recipe (every version) */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            job_id: string;
            object: "recipe";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
            /** How many versions were removed. */
            versions: number;
          };
        };
      };
    };
  };
  "/v1/jobs/{id}/eval_cases": {
    /** List the eval cases a job keeps, newest first */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "eval_case";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              job_id: string;
              name: string | null;
              inputs: Record<string, unknown>;
              /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
              expect: {
                /** The JSON value a good result has. */
                equals?: unknown;
                /** Text a string must contain, or an item an array must have. */
                contains?: unknown;
                /** A regular expression, as JSON Schema `pattern` reads it. */
                pattern?: string;
                /** The bounds, `{min, max}`. */
                range?: {
                  min?: number;
                  max?: number;
                };
                /** A JSON Schema. */
                schema?: Record<string, unknown>;
                /** A value matcher per member of the result, by name or dotted path. */
                members?: Record<string, {
                    /** The JSON value a good result has. */
                    equals?: unknown;
                    /** Text a string must contain, or an item an array must have. */
                    contains?: unknown;
                    /** A regular expression, as JSON Schema `pattern` reads it. */
                    pattern?: string;
                    /** The bounds, `{min, max}`. */
                    range?: {
                      min?: number;
                      max?: number;
                    };
                    /** A JSON Schema. */
                    schema?: Record<string, unknown>;
                  }>;
                /** The failure_reason a good run ends with. */
                failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
              };
              created_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Keep an eval case with a job: inputs and what a good result is */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody: {
        "application/json": {
          /** What the case is called in results and comparisons; without one, a case is known by its inputs. */
          name?: string;
          /** The run's inputs (the job's {{placeholders}}). */
          inputs?: Record<string, unknown>;
          /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
          expect: {
            /** The JSON value a good result has. */
            equals?: unknown;
            /** Text a string must contain, or an item an array must have. */
            contains?: unknown;
            /** A regular expression, as JSON Schema `pattern` reads it. */
            pattern?: string;
            /** The bounds, `{min, max}`. */
            range?: {
              min?: number;
              max?: number;
            };
            /** A JSON Schema. */
            schema?: Record<string, unknown>;
            /** A value matcher per member of the result, by name or dotted path. */
            members?: Record<string, {
                /** The JSON value a good result has. */
                equals?: unknown;
                /** Text a string must contain, or an item an array must have. */
                contains?: unknown;
                /** A regular expression, as JSON Schema `pattern` reads it. */
                pattern?: string;
                /** The bounds, `{min, max}`. */
                range?: {
                  min?: number;
                  max?: number;
                };
                /** A JSON Schema. */
                schema?: Record<string, unknown>;
              }>;
            /** The failure_reason a good run ends with. */
            failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
          };
        };
      };
      responses: {
        "201": {
          "application/json": {
            id: string;
            object: "eval_case";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            job_id: string;
            name: string | null;
            inputs: Record<string, unknown>;
            /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
            expect: {
              /** The JSON value a good result has. */
              equals?: unknown;
              /** Text a string must contain, or an item an array must have. */
              contains?: unknown;
              /** A regular expression, as JSON Schema `pattern` reads it. */
              pattern?: string;
              /** The bounds, `{min, max}`. */
              range?: {
                min?: number;
                max?: number;
              };
              /** A JSON Schema. */
              schema?: Record<string, unknown>;
              /** A value matcher per member of the result, by name or dotted path. */
              members?: Record<string, {
                  /** The JSON value a good result has. */
                  equals?: unknown;
                  /** Text a string must contain, or an item an array must have. */
                  contains?: unknown;
                  /** A regular expression, as JSON Schema `pattern` reads it. */
                  pattern?: string;
                  /** The bounds, `{min, max}`. */
                  range?: {
                    min?: number;
                    max?: number;
                  };
                  /** A JSON Schema. */
                  schema?: Record<string, unknown>;
                }>;
              /** The failure_reason a good run ends with. */
              failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
            };
            created_at: string;
          };
        };
      };
    };
  };
  "/v1/eval_cases/{id}": {
    /** Get a kept eval case */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `evc_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "eval_case";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            job_id: string;
            name: string | null;
            inputs: Record<string, unknown>;
            /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
            expect: {
              /** The JSON value a good result has. */
              equals?: unknown;
              /** Text a string must contain, or an item an array must have. */
              contains?: unknown;
              /** A regular expression, as JSON Schema `pattern` reads it. */
              pattern?: string;
              /** The bounds, `{min, max}`. */
              range?: {
                min?: number;
                max?: number;
              };
              /** A JSON Schema. */
              schema?: Record<string, unknown>;
              /** A value matcher per member of the result, by name or dotted path. */
              members?: Record<string, {
                  /** The JSON value a good result has. */
                  equals?: unknown;
                  /** Text a string must contain, or an item an array must have. */
                  contains?: unknown;
                  /** A regular expression, as JSON Schema `pattern` reads it. */
                  pattern?: string;
                  /** The bounds, `{min, max}`. */
                  range?: {
                    min?: number;
                    max?: number;
                  };
                  /** A JSON Schema. */
                  schema?: Record<string, unknown>;
                }>;
              /** The failure_reason a good run ends with. */
              failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
            };
            created_at: string;
          };
        };
      };
    };
    /** Delete a kept eval case (evals made before keep their copy) */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `evc_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "eval_case";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
  };
  "/v1/jobs/{id}/evals": {
    /** List a job's evals, newest first, with their totals */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "eval";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              job_id: string;
              status: "queued" | "running" | "completed" | "cancelled";
              replay: "auto" | "off";
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              /** The prompt its runs use instead of the job's; null: the job's. */
              prompt: string | null;
              settings: Record<string, unknown>;
              baseline_id: string | null;
              max_parallel: number;
              totals: {
                cases: number;
                passed: number;
                failed: number;
                errors: number;
                skipped: number;
                pending: number;
                running: number;
                /** passed / cases, from 0 to 1 (4 decimals). */
                pass_rate: number;
                /** The cases' runs' durations, added up. */
                duration_ms: number;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Evaluate a job: run its cases (each a normal run) and grade each run's result */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          /** The cases to run (a CI's JSONL file); without them, the job's kept cases (GET /v1/jobs/{id}/eval_cases). */
          cases?: {
            /** What the case is called in results and comparisons; without one, a case is known by its inputs. */
            name?: string;
            /** The run's inputs (the job's {{placeholders}}). */
            inputs?: Record<string, unknown>;
            /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
            expect: {
              /** The JSON value a good result has. */
              equals?: unknown;
              /** Text a string must contain, or an item an array must have. */
              contains?: unknown;
              /** A regular expression, as JSON Schema `pattern` reads it. */
              pattern?: string;
              /** The bounds, `{min, max}`. */
              range?: {
                min?: number;
                max?: number;
              };
              /** A JSON Schema. */
              schema?: Record<string, unknown>;
              /** A value matcher per member of the result, by name or dotted path. */
              members?: Record<string, {
                  /** The JSON value a good result has. */
                  equals?: unknown;
                  /** Text a string must contain, or an item an array must have. */
                  contains?: unknown;
                  /** A regular expression, as JSON Schema `pattern` reads it. */
                  pattern?: string;
                  /** The bounds, `{min, max}`. */
                  range?: {
                    min?: number;
                    max?: number;
                  };
                  /** A JSON Schema. */
                  schema?: Record<string, unknown>;
                }>;
              /** The failure_reason a good run ends with. */
              failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
            };
          }[];
          /** auto: the runs replay the job's recipe; off: the agent runs every step. Default: the job's replay, and off with `prompt`. */
          replay?: "auto" | "off";
          /** The model the runs use instead of the job's. */
          model?: "haiku" | "sonnet" | "opus";
          /** A prompt the runs use instead of the job's (its {{placeholders}} filled from each case's inputs). */
          prompt?: string;
          /** Run options every case's run takes instead of the job's (those of POST /v1/jobs/{id}/runs but inputs and idempotency_key). */
          settings?: {
            /** JSON Schema the result must satisfy. */
            output_schema?: Record<string, unknown>;
            name?: string;
            /** https target of the signed completion webhook. */
            callback_url?: string;
            /** Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required. */
            connections?: string[];
            /** Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name. */
            files?: string[];
            /** Longest the run may execute, in seconds. */
            timeout_s?: number;
            /** The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low. */
            max_cost_usd?: number;
            /** false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run. */
            recording?: boolean;
            /** Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s. */
            human_timeout_s?: number;
            /** Who is emailed when the agent asks for a person (needs email configured); a reply answers. */
            human_email?: string;
            /** A form is submitted only after a person approved it: the agent must ask with request_human, kind approve. */
            require_approval?: boolean;
            /** Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required. */
            proxy?: string;
            /** A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host. */
            sandbox_label?: string;
            /** A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds. */
            profile?: string;
            /** read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it. */
            profile_mode?: "read" | "read_write";
            /** When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's. */
            save_profile?: string;
            /** dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's. */
            action_space?: "dom" | "computer";
          };
          /** Another eval of the same job to compare with: what got better or worse. */
          baseline_id?: string;
          /** Most of the eval's runs queued or running at once; at most evals.max_parallel (its default), which bounds all of an organisation's evals together. */
          max_parallel?: number;
          /** A repeat within 24 h answers the first eval (202) instead of starting another. */
          idempotency_key?: string;
        };
      };
      responses: {
        "202": {
          "application/json": {
            id: string;
            object: "eval";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            job_id: string;
            status: "queued" | "running" | "completed" | "cancelled";
            replay: "auto" | "off";
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            /** The prompt its runs use instead of the job's; null: the job's. */
            prompt: string | null;
            settings: Record<string, unknown>;
            baseline_id: string | null;
            max_parallel: number;
            totals: {
              cases: number;
              passed: number;
              failed: number;
              errors: number;
              skipped: number;
              pending: number;
              running: number;
              /** passed / cases, from 0 to 1 (4 decimals). */
              pass_rate: number;
              /** The cases' runs' durations, added up. */
              duration_ms: number;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            cases: {
              /** The case's place in the eval, from 0. */
              position: number;
              /** Its name, or its inputs as JSON when it has none. */
              label: string;
              name: string | null;
              /** The kept case it was copied from, or null for an inline case. */
              case_id: string | null;
              inputs: Record<string, unknown>;
              /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
              expect: {
                /** The JSON value a good result has. */
                equals?: unknown;
                /** Text a string must contain, or an item an array must have. */
                contains?: unknown;
                /** A regular expression, as JSON Schema `pattern` reads it. */
                pattern?: string;
                /** The bounds, `{min, max}`. */
                range?: {
                  min?: number;
                  max?: number;
                };
                /** A JSON Schema. */
                schema?: Record<string, unknown>;
                /** A value matcher per member of the result, by name or dotted path. */
                members?: Record<string, {
                    /** The JSON value a good result has. */
                    equals?: unknown;
                    /** Text a string must contain, or an item an array must have. */
                    contains?: unknown;
                    /** A regular expression, as JSON Schema `pattern` reads it. */
                    pattern?: string;
                    /** The bounds, `{min, max}`. */
                    range?: {
                      min?: number;
                      max?: number;
                    };
                    /** A JSON Schema. */
                    schema?: Record<string, unknown>;
                  }>;
                /** The failure_reason a good run ends with. */
                failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
              };
              /** pending (no run yet), running, passed, failed (the run differs: `differences`), error (no run could be made: `error`), skipped (the eval was cancelled first). */
              status: "pending" | "running" | "passed" | "failed" | "error" | "skipped";
              /** Where the run differs from a good one; empty unless `failed`. */
              differences: {
                /** `run` (how the run ended), `result`, or a member of it (`result.price`). */
                path: string;
                /** What a good run has there, in words. */
                expected: string;
                /** What this run has there: JSON, shortened past 200 characters, or `(missing)`. */
                got: string;
              }[];
              /** Why no run was made for the case (the refusal, with its code). */
              error: string | null;
              run_id: string | null;
              run_status: "queued" | "running" | "succeeded" | "failed" | "cancelled" | null;
              result: Record<string, unknown> | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              failure_detail: string | null;
              /** How the run ran (the envelope's mode), once it ended. */
              mode: "agent" | "replay" | "replay_then_agent" | null;
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              started_at: string | null;
              ended_at: string | null;
            }[];
            /** Beside the baseline eval: what got better or worse. Cases are the same case when they have the same name, or, without names, the same inputs. Null without a baseline, or once retention purged it. */
            comparison: {
              baseline_id: string;
              pass_rate_change: number;
              cost_usd_change: number;
              duration_ms_change: number;
              /** Labels of cases that pass now and did not. */
              newly_passing: string[];
              /** Labels of cases that passed and do not now. */
              newly_failing: string[];
              /** Cases that pass, or do not, in both. */
              unchanged: number;
              /** Labels of the baseline's cases this eval does not have. */
              removed: string[];
              cases: {
                label: string;
                /** Null when the baseline had no such case. */
                baseline_status: "pending" | "running" | "passed" | "failed" | "error" | "skipped" | null;
                status: "pending" | "running" | "passed" | "failed" | "error" | "skipped";
                change: "newly_passing" | "newly_failing" | "unchanged" | "added";
                cost_usd_change: number | null;
                duration_ms_change: number | null;
              }[];
            } | null;
            /** Signed link to the eval's report, an HTML page (valid 7 days from when the eval was read; no API key). */
            report_url: string;
          };
        };
      };
    };
  };
  "/v1/evals/{id}": {
    /** Get an eval: each case with its grade and differences, the totals, and what changed beside its baseline */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `eval_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "eval";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            job_id: string;
            status: "queued" | "running" | "completed" | "cancelled";
            replay: "auto" | "off";
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            /** The prompt its runs use instead of the job's; null: the job's. */
            prompt: string | null;
            settings: Record<string, unknown>;
            baseline_id: string | null;
            max_parallel: number;
            totals: {
              cases: number;
              passed: number;
              failed: number;
              errors: number;
              skipped: number;
              pending: number;
              running: number;
              /** passed / cases, from 0 to 1 (4 decimals). */
              pass_rate: number;
              /** The cases' runs' durations, added up. */
              duration_ms: number;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            cases: {
              /** The case's place in the eval, from 0. */
              position: number;
              /** Its name, or its inputs as JSON when it has none. */
              label: string;
              name: string | null;
              /** The kept case it was copied from, or null for an inline case. */
              case_id: string | null;
              inputs: Record<string, unknown>;
              /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
              expect: {
                /** The JSON value a good result has. */
                equals?: unknown;
                /** Text a string must contain, or an item an array must have. */
                contains?: unknown;
                /** A regular expression, as JSON Schema `pattern` reads it. */
                pattern?: string;
                /** The bounds, `{min, max}`. */
                range?: {
                  min?: number;
                  max?: number;
                };
                /** A JSON Schema. */
                schema?: Record<string, unknown>;
                /** A value matcher per member of the result, by name or dotted path. */
                members?: Record<string, {
                    /** The JSON value a good result has. */
                    equals?: unknown;
                    /** Text a string must contain, or an item an array must have. */
                    contains?: unknown;
                    /** A regular expression, as JSON Schema `pattern` reads it. */
                    pattern?: string;
                    /** The bounds, `{min, max}`. */
                    range?: {
                      min?: number;
                      max?: number;
                    };
                    /** A JSON Schema. */
                    schema?: Record<string, unknown>;
                  }>;
                /** The failure_reason a good run ends with. */
                failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
              };
              /** pending (no run yet), running, passed, failed (the run differs: `differences`), error (no run could be made: `error`), skipped (the eval was cancelled first). */
              status: "pending" | "running" | "passed" | "failed" | "error" | "skipped";
              /** Where the run differs from a good one; empty unless `failed`. */
              differences: {
                /** `run` (how the run ended), `result`, or a member of it (`result.price`). */
                path: string;
                /** What a good run has there, in words. */
                expected: string;
                /** What this run has there: JSON, shortened past 200 characters, or `(missing)`. */
                got: string;
              }[];
              /** Why no run was made for the case (the refusal, with its code). */
              error: string | null;
              run_id: string | null;
              run_status: "queued" | "running" | "succeeded" | "failed" | "cancelled" | null;
              result: Record<string, unknown> | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              failure_detail: string | null;
              /** How the run ran (the envelope's mode), once it ended. */
              mode: "agent" | "replay" | "replay_then_agent" | null;
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              started_at: string | null;
              ended_at: string | null;
            }[];
            /** Beside the baseline eval: what got better or worse. Cases are the same case when they have the same name, or, without names, the same inputs. Null without a baseline, or once retention purged it. */
            comparison: {
              baseline_id: string;
              pass_rate_change: number;
              cost_usd_change: number;
              duration_ms_change: number;
              /** Labels of cases that pass now and did not. */
              newly_passing: string[];
              /** Labels of cases that passed and do not now. */
              newly_failing: string[];
              /** Cases that pass, or do not, in both. */
              unchanged: number;
              /** Labels of the baseline's cases this eval does not have. */
              removed: string[];
              cases: {
                label: string;
                /** Null when the baseline had no such case. */
                baseline_status: "pending" | "running" | "passed" | "failed" | "error" | "skipped" | null;
                status: "pending" | "running" | "passed" | "failed" | "error" | "skipped";
                change: "newly_passing" | "newly_failing" | "unchanged" | "added";
                cost_usd_change: number | null;
                duration_ms_change: number | null;
              }[];
            } | null;
            /** Signed link to the eval's report, an HTML page (valid 7 days from when the eval was read; no API key). */
            report_url: string;
          };
        };
      };
    };
  };
  "/v1/evals/{id}/cancel": {
    /** Cancel an eval: its cases without a run are skipped, its runs under way cancelled */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `eval_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "eval";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            job_id: string;
            status: "queued" | "running" | "completed" | "cancelled";
            replay: "auto" | "off";
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            /** The prompt its runs use instead of the job's; null: the job's. */
            prompt: string | null;
            settings: Record<string, unknown>;
            baseline_id: string | null;
            max_parallel: number;
            totals: {
              cases: number;
              passed: number;
              failed: number;
              errors: number;
              skipped: number;
              pending: number;
              running: number;
              /** passed / cases, from 0 to 1 (4 decimals). */
              pass_rate: number;
              /** The cases' runs' durations, added up. */
              duration_ms: number;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            cases: {
              /** The case's place in the eval, from 0. */
              position: number;
              /** Its name, or its inputs as JSON when it has none. */
              label: string;
              name: string | null;
              /** The kept case it was copied from, or null for an inline case. */
              case_id: string | null;
              inputs: Record<string, unknown>;
              /** Exactly one matcher: equals, contains, pattern, range, schema (of the whole result), members, or failure_reason (docs/api.md, Evaluations). */
              expect: {
                /** The JSON value a good result has. */
                equals?: unknown;
                /** Text a string must contain, or an item an array must have. */
                contains?: unknown;
                /** A regular expression, as JSON Schema `pattern` reads it. */
                pattern?: string;
                /** The bounds, `{min, max}`. */
                range?: {
                  min?: number;
                  max?: number;
                };
                /** A JSON Schema. */
                schema?: Record<string, unknown>;
                /** A value matcher per member of the result, by name or dotted path. */
                members?: Record<string, {
                    /** The JSON value a good result has. */
                    equals?: unknown;
                    /** Text a string must contain, or an item an array must have. */
                    contains?: unknown;
                    /** A regular expression, as JSON Schema `pattern` reads it. */
                    pattern?: string;
                    /** The bounds, `{min, max}`. */
                    range?: {
                      min?: number;
                      max?: number;
                    };
                    /** A JSON Schema. */
                    schema?: Record<string, unknown>;
                  }>;
                /** The failure_reason a good run ends with. */
                failure_reason?: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found";
              };
              /** pending (no run yet), running, passed, failed (the run differs: `differences`), error (no run could be made: `error`), skipped (the eval was cancelled first). */
              status: "pending" | "running" | "passed" | "failed" | "error" | "skipped";
              /** Where the run differs from a good one; empty unless `failed`. */
              differences: {
                /** `run` (how the run ended), `result`, or a member of it (`result.price`). */
                path: string;
                /** What a good run has there, in words. */
                expected: string;
                /** What this run has there: JSON, shortened past 200 characters, or `(missing)`. */
                got: string;
              }[];
              /** Why no run was made for the case (the refusal, with its code). */
              error: string | null;
              run_id: string | null;
              run_status: "queued" | "running" | "succeeded" | "failed" | "cancelled" | null;
              result: Record<string, unknown> | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              failure_detail: string | null;
              /** How the run ran (the envelope's mode), once it ended. */
              mode: "agent" | "replay" | "replay_then_agent" | null;
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              started_at: string | null;
              ended_at: string | null;
            }[];
            /** Beside the baseline eval: what got better or worse. Cases are the same case when they have the same name, or, without names, the same inputs. Null without a baseline, or once retention purged it. */
            comparison: {
              baseline_id: string;
              pass_rate_change: number;
              cost_usd_change: number;
              duration_ms_change: number;
              /** Labels of cases that pass now and did not. */
              newly_passing: string[];
              /** Labels of cases that passed and do not now. */
              newly_failing: string[];
              /** Cases that pass, or do not, in both. */
              unchanged: number;
              /** Labels of the baseline's cases this eval does not have. */
              removed: string[];
              cases: {
                label: string;
                /** Null when the baseline had no such case. */
                baseline_status: "pending" | "running" | "passed" | "failed" | "error" | "skipped" | null;
                status: "pending" | "running" | "passed" | "failed" | "error" | "skipped";
                change: "newly_passing" | "newly_failing" | "unchanged" | "added";
                cost_usd_change: number | null;
                duration_ms_change: number | null;
              }[];
            } | null;
            /** Signed link to the eval's report, an HTML page (valid 7 days from when the eval was read; no API key). */
            report_url: string;
          };
        };
      };
    };
  };
  "/v1/evals/{id}/report": {
    /** An eval's report, an HTML page, by its signed link (report_url) */
    get: {
      parameters: {
        query?: {
          /** Unix time (seconds) after which the link answers 410. */
          expires?: number;
          /** HMAC signature of the id and expiry. */
          sig?: string;
        };
        header?: never;
        path: {
          /** A `eval_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        /** The eval's report: a self-contained HTML page (no script; inline styles and an SVG chart). */
        "200": {
          "text/html": string;
        };
        "403": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "404": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "410": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/runs": {
    /** List recent runs */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
          /** Only runs of this job. */
          job_id?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              task_id: string;
              object: "run";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Start a run from a prompt */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** W3C traceparent of the caller's span: the run's trace (with OpenTelemetry tracing configured) is its child, and the run's webhooks carry the run's span as their traceparent. An invalid one is ignored. */
          traceparent?: string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          prompt: string;
          /** One of haiku, sonnet, opus; default sonnet. */
          model?: "haiku" | "sonnet" | "opus";
          project_id?: string;
          /** Values for the prompt's {{placeholders}}. */
          inputs?: Record<string, unknown>;
          /** JSON Schema the result must satisfy. */
          output_schema?: Record<string, unknown>;
          name?: string;
          /** https target of the signed completion webhook. */
          callback_url?: string;
          /** A replay within 24 h returns the original run. */
          idempotency_key?: string;
          /** Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required. */
          connections?: string[];
          /** Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name. */
          files?: string[];
          /** Longest the run may execute, in seconds. */
          timeout_s?: number;
          /** The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low. */
          max_cost_usd?: number;
          /** false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run. */
          recording?: boolean;
          /** Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s. */
          human_timeout_s?: number;
          /** Who is emailed when the agent asks for a person (needs email configured); a reply answers. */
          human_email?: string;
          /** A form is submitted only after a person approved it: the agent must ask with request_human, kind approve. */
          require_approval?: boolean;
          /** Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required. */
          proxy?: string;
          /** A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host. */
          sandbox_label?: string;
          /** A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds. */
          profile?: string;
          /** read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it. */
          profile_mode?: "read" | "read_write";
          /** When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's. */
          save_profile?: string;
          /** dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's. */
          action_space?: "dom" | "computer";
        };
      };
      responses: {
        "202": {
          "application/json": {
            task_id: string;
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            poll_url: string;
            billing: {
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              credit_usd_rate: number;
              estimated_cost_usd: {
                low: number;
                high: number;
              };
              estimated_credits: {
                low: number;
                high: number;
              };
              monthly_cap_usd: number | null;
              note: string;
            };
            /** What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap. */
            warnings: {
              code: "no_model_provider" | "connection_unusable" | "estimate_exceeds_cap";
              message: string;
              param: string | null;
            }[];
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
          };
        };
        "402": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "429": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/runs/check": {
    /** Check a run without starting it: what POST /runs would answer (its refusals, billing and warnings), nothing created */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody: {
        "application/json": {
          prompt: string;
          /** One of haiku, sonnet, opus; default sonnet. */
          model?: "haiku" | "sonnet" | "opus";
          project_id?: string;
          /** Values for the prompt's {{placeholders}}. */
          inputs?: Record<string, unknown>;
          /** JSON Schema the result must satisfy. */
          output_schema?: Record<string, unknown>;
          name?: string;
          /** https target of the signed completion webhook. */
          callback_url?: string;
          /** A replay within 24 h returns the original run. */
          idempotency_key?: string;
          /** Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required. */
          connections?: string[];
          /** Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name. */
          files?: string[];
          /** Longest the run may execute, in seconds. */
          timeout_s?: number;
          /** The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low. */
          max_cost_usd?: number;
          /** false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run. */
          recording?: boolean;
          /** Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s. */
          human_timeout_s?: number;
          /** Who is emailed when the agent asks for a person (needs email configured); a reply answers. */
          human_email?: string;
          /** A form is submitted only after a person approved it: the agent must ask with request_human, kind approve. */
          require_approval?: boolean;
          /** Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required. */
          proxy?: string;
          /** A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host. */
          sandbox_label?: string;
          /** A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds. */
          profile?: string;
          /** read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it. */
          profile_mode?: "read" | "read_write";
          /** When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's. */
          save_profile?: string;
          /** dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's. */
          action_space?: "dom" | "computer";
        };
      };
      responses: {
        "200": {
          "application/json": {
            object: "run_check";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            /** The run its idempotency_key would answer again, or null when a new run would be created. */
            replay_of: string | null;
            billing: {
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              credit_usd_rate: number;
              estimated_cost_usd: {
                low: number;
                high: number;
              };
              estimated_credits: {
                low: number;
                high: number;
              };
              monthly_cap_usd: number | null;
              note: string;
            };
            /** What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap. */
            warnings: {
              code: "no_model_provider" | "connection_unusable" | "estimate_exceeds_cap";
              message: string;
              param: string | null;
            }[];
          };
        };
        "402": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "429": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/jobs/{id}/runs": {
    /** Start a run of a job */
    post: {
      parameters: {
        query?: never;
        header?: {
          /** W3C traceparent of the caller's span: the run's trace (with OpenTelemetry tracing configured) is its child, and the run's webhooks carry the run's span as their traceparent. An invalid one is ignored. */
          traceparent?: string;
        };
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          /** Values for the prompt's {{placeholders}}. */
          inputs?: Record<string, unknown>;
          /** JSON Schema the result must satisfy. */
          output_schema?: Record<string, unknown>;
          name?: string;
          /** https target of the signed completion webhook. */
          callback_url?: string;
          /** A replay within 24 h returns the original run. */
          idempotency_key?: string;
          /** Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required. */
          connections?: string[];
          /** Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name. */
          files?: string[];
          /** Longest the run may execute, in seconds. */
          timeout_s?: number;
          /** The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low. */
          max_cost_usd?: number;
          /** false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run. */
          recording?: boolean;
          /** Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s. */
          human_timeout_s?: number;
          /** Who is emailed when the agent asks for a person (needs email configured); a reply answers. */
          human_email?: string;
          /** A form is submitted only after a person approved it: the agent must ask with request_human, kind approve. */
          require_approval?: boolean;
          /** Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required. */
          proxy?: string;
          /** A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host. */
          sandbox_label?: string;
          /** A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds. */
          profile?: string;
          /** read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it. */
          profile_mode?: "read" | "read_write";
          /** When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's. */
          save_profile?: string;
          /** dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's. */
          action_space?: "dom" | "computer";
          /** auto: replay the job's recipe (the agent takes over where the page changed); off: the agent runs every step. Default: the job's replay. */
          replay?: "auto" | "off";
        };
      };
      responses: {
        "202": {
          "application/json": {
            task_id: string;
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            poll_url: string;
            billing: {
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              credit_usd_rate: number;
              estimated_cost_usd: {
                low: number;
                high: number;
              };
              estimated_credits: {
                low: number;
                high: number;
              };
              monthly_cap_usd: number | null;
              note: string;
            };
            /** What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap. */
            warnings: {
              code: "no_model_provider" | "connection_unusable" | "estimate_exceeds_cap";
              message: string;
              param: string | null;
            }[];
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
          };
        };
        "402": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "429": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/jobs/{id}/runs/check": {
    /** Check a run of a job without starting it */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `job_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          /** Values for the prompt's {{placeholders}}. */
          inputs?: Record<string, unknown>;
          /** JSON Schema the result must satisfy. */
          output_schema?: Record<string, unknown>;
          name?: string;
          /** https target of the signed completion webhook. */
          callback_url?: string;
          /** A replay within 24 h returns the original run. */
          idempotency_key?: string;
          /** Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required. */
          connections?: string[];
          /** Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most 20, no two of one name. */
          files?: string[];
          /** Longest the run may execute, in seconds. */
          timeout_s?: number;
          /** The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low. */
          max_cost_usd?: number;
          /** false: no recording (trace and video) of the browser; default true, or the job's. recording.enabled off turns it off for every run. */
          recording?: boolean;
          /** Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s. */
          human_timeout_s?: number;
          /** Who is emailed when the agent asks for a person (needs email configured); a reply answers. */
          human_email?: string;
          /** A form is submitted only after a person approved it: the agent must ask with request_human, kind approve. */
          require_approval?: boolean;
          /** Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required. */
          proxy?: string;
          /** A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host. */
          sandbox_label?: string;
          /** A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds. */
          profile?: string;
          /** read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it. */
          profile_mode?: "read" | "read_write";
          /** When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's. */
          save_profile?: string;
          /** dom (default): the browser tool, with the page's elements by reference; computer: the model's own computer-use tool, screenshots and coordinates (only models that have one: docs/api.md, Action spaces). A run's wins over its job's. */
          action_space?: "dom" | "computer";
          /** auto: replay the job's recipe (the agent takes over where the page changed); off: the agent runs every step. Default: the job's replay. */
          replay?: "auto" | "off";
        };
      };
      responses: {
        "200": {
          "application/json": {
            object: "run_check";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            /** The run its idempotency_key would answer again, or null when a new run would be created. */
            replay_of: string | null;
            billing: {
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              credit_usd_rate: number;
              estimated_cost_usd: {
                low: number;
                high: number;
              };
              estimated_credits: {
                low: number;
                high: number;
              };
              monthly_cap_usd: number | null;
              note: string;
            };
            /** What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap. */
            warnings: {
              code: "no_model_provider" | "connection_unusable" | "estimate_exceeds_cap";
              message: string;
              param: string | null;
            }[];
          };
        };
        "402": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "429": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/runs/{id}": {
    /** Poll a run: its task envelope */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            task_id: string;
            object: "run";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            result: Record<string, unknown> | null;
            confidence: "high" | "medium" | "low" | null;
            evidence: {
              screenshot_url: string | null;
              matched_text: string | null;
              checked_at: string;
              /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
              recording_url: string | null;
              /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
              trace_url: string | null;
            } | null;
            failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
            /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
            failure_code: "budget_exceeded" | null;
            failure_detail: string | null;
            warnings: string[];
            usage: {
              duration_ms: number | null;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
            max_cost_usd: number | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            job_id: string | null;
            project_id: string;
            name: string | null;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            attempt: number;
            progress: {
              steps: number;
              last_action: string | null;
            };
            /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
            waiting_for: {
              /** The wait (`wp_` prefix). */
              waitpoint_id: string;
              on: "person" | "takeover" | "email";
              /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
              timer: "runs" | "stopped";
              since: string;
              /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
              expires_at: string | null;
              /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
              request_id: string | null;
              /** A person's wait: what the agent asked for. */
              kind: "takeover" | "answer" | "approve" | null;
              question: string | null;
              asked_at: string | null;
              /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              /** A takeover: who holds the browser (`live link`, or an API key). */
              by: string | null;
              /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
              live_url: string | null;
            } | null;
            /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
            live_url: string | null;
            /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
            files: {
              /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
              name: string;
              /** Bytes. */
              size: number;
              /** SHA-256 of its bytes, lower-case hex. */
              sha256: string;
              /** By its name's extension; application/octet-stream when unknown. */
              content_type: string;
              /** Signed download link, usable without an API key until expires_at; served as an attachment. */
              url: string;
              /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
              expires_at: string;
            }[];
            /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
            mode: "agent" | "replay" | "replay_then_agent";
            /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
            sandbox: {
              /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
              label: string | null;
              /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
              host: string | null;
            };
            /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
            action_space: "dom" | "computer";
          };
        };
      };
    };
  };
  "/v1/runs/{id}/cancel": {
    /** Cancel a queued or running run */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            task_id: string;
            object: "run";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            result: Record<string, unknown> | null;
            confidence: "high" | "medium" | "low" | null;
            evidence: {
              screenshot_url: string | null;
              matched_text: string | null;
              checked_at: string;
              /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
              recording_url: string | null;
              /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
              trace_url: string | null;
            } | null;
            failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
            /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
            failure_code: "budget_exceeded" | null;
            failure_detail: string | null;
            warnings: string[];
            usage: {
              duration_ms: number | null;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
            max_cost_usd: number | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            job_id: string | null;
            project_id: string;
            name: string | null;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            attempt: number;
            progress: {
              steps: number;
              last_action: string | null;
            };
            /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
            waiting_for: {
              /** The wait (`wp_` prefix). */
              waitpoint_id: string;
              on: "person" | "takeover" | "email";
              /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
              timer: "runs" | "stopped";
              since: string;
              /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
              expires_at: string | null;
              /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
              request_id: string | null;
              /** A person's wait: what the agent asked for. */
              kind: "takeover" | "answer" | "approve" | null;
              question: string | null;
              asked_at: string | null;
              /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              /** A takeover: who holds the browser (`live link`, or an API key). */
              by: string | null;
              /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
              live_url: string | null;
            } | null;
            /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
            live_url: string | null;
            /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
            files: {
              /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
              name: string;
              /** Bytes. */
              size: number;
              /** SHA-256 of its bytes, lower-case hex. */
              sha256: string;
              /** By its name's extension; application/octet-stream when unknown. */
              content_type: string;
              /** Signed download link, usable without an API key until expires_at; served as an attachment. */
              url: string;
              /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
              expires_at: string;
            }[];
            /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
            mode: "agent" | "replay" | "replay_then_agent";
            /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
            sandbox: {
              /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
              label: string | null;
              /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
              host: string | null;
            };
            /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
            action_space: "dom" | "computer";
          };
        };
      };
    };
  };
  "/v1/runs/{id}/rerun": {
    /** Start a new run of what an earlier run was asked */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "202": {
          "application/json": {
            task_id: string;
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            poll_url: string;
            billing: {
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              credit_usd_rate: number;
              estimated_cost_usd: {
                low: number;
                high: number;
              };
              estimated_credits: {
                low: number;
                high: number;
              };
              monthly_cap_usd: number | null;
              note: string;
            };
            /** What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap. */
            warnings: {
              code: "no_model_provider" | "connection_unusable" | "estimate_exceeds_cap";
              message: string;
              param: string | null;
            }[];
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
          };
        };
        "402": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "429": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/runs/{id}/human": {
    /** Answer what a waiting run asks a person (its waiting_for): an answer, an approval, or a takeover done */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody: {
        "application/json": {
          /** The question answered: the run's waiting_for.request_id as it was shown. An answer to another question than the one the run waits for is refused (409 request_mismatch), never applied to it. */
          request_id: string;
          /** kind answer: the reply the agent gets. */
          answer?: string;
          /** kind approve: true lets the agent go ahead, false tells it not to. */
          approved?: boolean;
          /** What the person did or wants the agent to know (for a takeover: what was done in the browser). */
          note?: string;
        };
      };
      responses: {
        "200": {
          "application/json": {
            task_id: string;
            object: "run";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            result: Record<string, unknown> | null;
            confidence: "high" | "medium" | "low" | null;
            evidence: {
              screenshot_url: string | null;
              matched_text: string | null;
              checked_at: string;
              /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
              recording_url: string | null;
              /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
              trace_url: string | null;
            } | null;
            failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
            /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
            failure_code: "budget_exceeded" | null;
            failure_detail: string | null;
            warnings: string[];
            usage: {
              duration_ms: number | null;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
            max_cost_usd: number | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            job_id: string | null;
            project_id: string;
            name: string | null;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            attempt: number;
            progress: {
              steps: number;
              last_action: string | null;
            };
            /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
            waiting_for: {
              /** The wait (`wp_` prefix). */
              waitpoint_id: string;
              on: "person" | "takeover" | "email";
              /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
              timer: "runs" | "stopped";
              since: string;
              /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
              expires_at: string | null;
              /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
              request_id: string | null;
              /** A person's wait: what the agent asked for. */
              kind: "takeover" | "answer" | "approve" | null;
              question: string | null;
              asked_at: string | null;
              /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              /** A takeover: who holds the browser (`live link`, or an API key). */
              by: string | null;
              /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
              live_url: string | null;
            } | null;
            /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
            live_url: string | null;
            /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
            files: {
              /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
              name: string;
              /** Bytes. */
              size: number;
              /** SHA-256 of its bytes, lower-case hex. */
              sha256: string;
              /** By its name's extension; application/octet-stream when unknown. */
              content_type: string;
              /** Signed download link, usable without an API key until expires_at; served as an attachment. */
              url: string;
              /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
              expires_at: string;
            }[];
            /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
            mode: "agent" | "replay" | "replay_then_agent";
            /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
            sandbox: {
              /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
              label: string | null;
              /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
              host: string | null;
            };
            /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
            action_space: "dom" | "computer";
          };
        };
        "409": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/runs/{id}/live/frames": {
    /** A running run's browser as it is: screencast frames (server-sent events) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        /** Server-sent events: `frame` with {jpeg (base64), width, height (the viewport in CSS pixels), url}, or `waiting` before the browser has a page; `tabs` with {tabs: [{index, url, title, current}]} when a watcher joins and whenever a tab opens, closes or becomes current (the frames show the current one). Ends when the run stops or its links are revoked. */
        "200": {
          "text/event-stream": string;
        };
      };
    };
  };
  "/v1/runs/{id}/live/state": {
    /** What the live view shows besides the frames */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "live_state";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            run: {
              task_id: string;
              object: "run";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            };
            /** The text of the agent's latest model answer, or null. */
            thought: string | null;
            control: {
              held: boolean;
              since: string | null;
              by: string | null;
            };
            /** Frame streams open on this run now. */
            viewers: number;
            /** The profiles "save this login" offers: the run's profile and save_profile. Another name makes a new profile. */
            profiles: string[];
          };
        };
      };
    };
  };
  "/v1/runs/{id}/live/control": {
    /** Take control of a running run's browser: the agent pauses until it is handed back */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": Record<string, never>;
      };
      responses: {
        "200": {
          "application/json": {
            object: "live_control";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            run_id: string;
            control_id: string;
            since: string;
          };
        };
      };
    };
  };
  "/v1/runs/{id}/live/control/release": {
    /** Hand control back to the agent, with a note of what was done */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody: {
        "application/json": {
          /** What POST /v1/runs/{id}/live/control answered. */
          control_id: string;
          /** What the person did; told to the agent and kept in the step. */
          note?: string | null;
        };
      };
      responses: {
        "200": {
          "application/json": {
            object: "live_control_ended";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            run_id: string;
            started_at: string;
            ended_at: string;
            duration_ms: number;
            /** The takeover the agent asked for (request_human) that this hand-back answered, with its note; null when the run waited for none. */
            answered_request_id: string | null;
          };
        };
      };
    };
  };
  "/v1/runs/{id}/live/input": {
    /** A person's mouse, wheel or key input to the page (whoever holds control) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody: {
        "application/json": {
          /** What POST /v1/runs/{id}/live/control answered. */
          control_id: string;
          input: ({
            type: "mouse";
            event: "mousePressed" | "mouseReleased" | "mouseMoved";
            /** x in the page's CSS pixels (LiveFrame width and height). */
            x: number;
            /** y in the page's CSS pixels (LiveFrame width and height). */
            y: number;
            button: "none" | "left" | "middle" | "right";
            clickCount: number;
            /** CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8; none when left out. */
            modifiers?: number;
          } | {
            type: "wheel";
            /** x in the page's CSS pixels (LiveFrame width and height). */
            x: number;
            /** y in the page's CSS pixels (LiveFrame width and height). */
            y: number;
            deltaX: number;
            deltaY: number;
            /** CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8; none when left out. */
            modifiers?: number;
          } | {
            type: "key";
            event: "keyDown" | "keyUp";
            /** KeyboardEvent.key */
            key: string;
            /** KeyboardEvent.code */
            code: string;
            /** The Windows virtual key code (KeyboardEvent.keyCode). */
            keyCode: number;
            /** What the key types ("" for keys that type nothing, "\r" for Enter). */
            text: string;
            /** CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8; none when left out. */
            modifiers?: number;
          } | {
            type: "text";
            /** Inserted as if pasted. */
            text: string;
          } | {
            type: "tab";
            /** The tab to show, as the frame stream's `tabs` event lists them; the agent goes on in it. */
            index: number;
          });
        };
      };
      responses: {
        /** Handed to the page. */
        "204": never;
      };
    };
  };
  "/v1/runs/{id}/live/login": {
    /** Save this login: the browser's state saved now as a profile, by whoever holds control */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody: {
        "application/json": {
          /** What POST /v1/runs/{id}/live/control answered. */
          control_id: string;
          /** The profile to save the browser's state as: the run's profile or save_profile, or a new name (an API key may name any). */
          profile: string;
        };
      };
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "profile";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
            has_state: boolean;
            /** The sites the state holds: the origins of its storage and the domains of its cookies. */
            origins: string[];
            /** The size of the saved state (profiles.max_state_kb bounds it). */
            size_bytes: number;
            saved_at: string | null;
            /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
            saved_by_run_id: string | null;
            /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
            saved_via: "run" | "live_view" | "import" | null;
            last_used_at: string | null;
            last_used_by_run_id: string | null;
            /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
            check: {
              url: string;
              text: string | null;
              role: string | null;
              name: string | null;
            } | null;
            /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
            health: "unknown" | "signed_in" | "signed_out" | "expired";
            /** What the last check saw, in words. */
            health_detail: string | null;
            checked_at: string | null;
            /** When its state is erased; null: never. */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/runs/{id}/live/revoke": {
    /** Revoke every live link of a run made so far (and end control held through one) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": Record<string, never>;
      };
      responses: {
        "200": {
          "application/json": {
            object: "live_revocation";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            run_id: string;
            revoked_at: string;
            control_released: boolean;
          };
        };
      };
    };
  };
  "/v1/runs/{id}/steps": {
    /** A run's steps: every model call and tool call, with inputs, truncated outputs and usage */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "run_step";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              run_id: string;
              /** Which attempt of the run made this step (a run is retried when the daemon died under it). */
              attempt: number;
              /** Order within the attempt, from 1. */
              seq: number;
              kind: "model" | "tool" | "person";
              /** The model id for a model call; the tool and action for a tool call (browser.navigate, run_code.python, finish). */
              name: string;
              /** What the step was given: the tool input, or a summary of the model request. */
              input: unknown;
              /** What the step produced, truncated. */
              output: string | null;
              is_error: boolean;
              duration_ms: number;
              usage: {
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** Signed link to the screenshot this step took, valid 7 days. */
              screenshot_url: string | null;
              created_at: string;
            }[];
            /** Always false: every step of the run is in one page. */
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
  };
  "/v1/runs/{id}/files": {
    /** A run's files: what its browser downloaded and its code wrote under /workspace/out/, with signed links */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
              name: string;
              /** Bytes. */
              size: number;
              /** SHA-256 of its bytes, lower-case hex. */
              sha256: string;
              /** By its name's extension; application/octet-stream when unknown. */
              content_type: string;
              /** Signed download link, usable without an API key until expires_at; served as an attachment. */
              url: string;
              /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
              expires_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
        "404": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/runs/{id}/files/{file}": {
    /** Download one of a run's files by its signed link */
    get: {
      parameters: {
        query?: {
          /** Unix time (seconds) after which the link answers 410. */
          expires?: number;
          /** HMAC signature of the id and expiry. */
          sig?: string;
        };
        header?: never;
        path: {
          /** A `run_` id. */
          id: string;
          /** The file: the `art_` id its signed link names. */
          file: string;
        };
      };
      requestBody?: never;
      responses: {
        /** The file, as an attachment under its name. */
        "200": {
          "application/octet-stream": string;
        };
        "403": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "404": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "410": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/artifacts/{id}": {
    /** Fetch an artifact (a screenshot, recording or trace) by its signed link */
    get: {
      parameters: {
        query?: {
          /** Unix time (seconds) after which the link answers 410. */
          expires?: number;
          /** HMAC signature of the id and expiry. */
          sig?: string;
        };
        header?: never;
        path: {
          /** A `art_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        /** The artifact: a PNG screenshot, a WebM recording of the browser, or a Playwright trace (zip; open it with `errand runs open <id> --trace`). */
        "200": {
          "image/png": string;
          "video/webm": string;
          "application/zip": string;
        };
        "403": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "404": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "410": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/events": {
    /** The organisation's live events (server-sent events) */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** Resume after this event id (sent by EventSource clients when they reconnect). */
          "last-event-id"?: string;
        };
        path?: never;
      };
      requestBody?: never;
      responses: {
        /** The organisation's events as server-sent events, live: after Last-Event-ID when given, otherwise from now on. A comment line is sent every events.heartbeat_s seconds. */
        "200": {
          "text/event-stream": {
            /** Durable and increasing: send the last one you saw as Last-Event-ID to resume after it. */
            id: number;
            object: "event";
            /** False for an event of test mode (docs/api.md, Test mode). */
            livemode: boolean;
            /** What happened. The daemon adds types as it gains features: ignore types you do not know. */
            type: "run.status" | "run.step" | "run.needs_human" | "run.human_answered" | "run.completed" | "run.failed" | "run.cancelled" | "eval.completed" | "eval.cancelled" | "webhook.attempted" | "schedule.fired" | "schedule.skipped" | "schedule.paused" | "email.received" | "email.bounced" | "email.complained" | "connection.authenticated" | "connection.expired" | "profile.signed_out";
            /** The run the event is about, if any: such events are also in the run's stream. */
            run_id: string | null;
            created_at: string;
            /** The event's data: its schema depends on `type` (see oneOf). */
            data: unknown;
          } & ({
            type: "run.status";
            data: {
              run_id: string;
              from: "queued" | "running" | "succeeded" | "failed" | "cancelled" | null;
              to: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              /** Why, in words. */
              description: string;
            };
          } | {
            type: "run.step";
            data: {
              id: string;
              object: "run_step";
              run_id: string;
              /** Which attempt of the run made this step (a run is retried when the daemon died under it). */
              attempt: number;
              /** Order within the attempt, from 1. */
              seq: number;
              kind: "model" | "tool" | "person";
              /** The model id for a model call; the tool and action for a tool call (browser.navigate, run_code.python, finish). */
              name: string;
              /** What the step was given: the tool input, or a summary of the model request. */
              input: unknown;
              /** What the step produced, truncated. */
              output: string | null;
              is_error: boolean;
              duration_ms: number;
              usage: {
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** Signed link to the screenshot this step took, valid 7 days. */
              screenshot_url: string | null;
              created_at: string;
              run_cost_usd: number;
            };
          } | {
            type: "run.needs_human";
            data: {
              run_id: string;
              /** The run's wait for the answer (`wp_` prefix), as waiting_for.waitpoint_id names it. */
              waitpoint_id: string;
              request_id: string;
              kind: "takeover" | "answer" | "approve";
              question: string;
              asked_at: string;
              /** The request of an earlier attempt this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              expires_at: string;
              live_url: string | null;
              /** POST /v1/runs/{id}/human of this run. */
              answer_url: string;
            };
          } | {
            type: "run.human_answered";
            data: {
              run_id: string;
              request_id: string;
              kind: "takeover" | "answer" | "approve";
              answer: string | null;
              approved: boolean | null;
              note: string | null;
              /** Who answered: an API key (`key <id>`), a live link, or an email address. */
              answered_by: string;
              answered_via: "api" | "cli" | "mcp" | "email" | "live";
              answered_at: string;
            };
          } | {
            type: "run.completed";
            data: {
              task_id: string;
              object: "run";
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            };
          } | {
            type: "run.failed";
            data: {
              task_id: string;
              object: "run";
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            };
          } | {
            type: "run.cancelled";
            data: {
              task_id: string;
              object: "run";
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            };
          } | {
            type: "eval.completed";
            data: {
              id: string;
              object: "eval";
              job_id: string;
              status: "queued" | "running" | "completed" | "cancelled";
              replay: "auto" | "off";
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              /** The prompt its runs use instead of the job's; null: the job's. */
              prompt: string | null;
              settings: Record<string, unknown>;
              baseline_id: string | null;
              max_parallel: number;
              totals: {
                cases: number;
                passed: number;
                failed: number;
                errors: number;
                skipped: number;
                pending: number;
                running: number;
                /** passed / cases, from 0 to 1 (4 decimals). */
                pass_rate: number;
                /** The cases' runs' durations, added up. */
                duration_ms: number;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
            };
          } | {
            type: "eval.cancelled";
            data: {
              id: string;
              object: "eval";
              job_id: string;
              status: "queued" | "running" | "completed" | "cancelled";
              replay: "auto" | "off";
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              /** The prompt its runs use instead of the job's; null: the job's. */
              prompt: string | null;
              settings: Record<string, unknown>;
              baseline_id: string | null;
              max_parallel: number;
              totals: {
                cases: number;
                passed: number;
                failed: number;
                errors: number;
                skipped: number;
                pending: number;
                running: number;
                /** passed / cases, from 0 to 1 (4 decimals). */
                pass_rate: number;
                /** The cases' runs' durations, added up. */
                duration_ms: number;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
            };
          } | {
            type: "webhook.attempted";
            data: {
              delivery_id: string;
              /** The webhook-id header of every attempt of the delivery. */
              event_id: string;
              /** The delivered event's type. */
              event: string;
              run_id: string | null;
              url: string;
              attempt: number;
              status_code: number | null;
              latency_ms: number;
              error: string | null;
              status: "pending" | "succeeded" | "failed";
              next_attempt_at: string | null;
            };
          } | {
            type: "schedule.fired";
            data: {
              job_id: string;
              /** The time the firing was scheduled for. */
              slot: string;
              run_id: string;
            };
          } | {
            type: "schedule.skipped";
            data: {
              job_id: string;
              slot: string;
              /** What refused the run, as the API would have answered it (`missing_input`, `daily_cap_reached`, ...). */
              code: string;
              message: string;
              param: string | null;
            };
          } | {
            type: "schedule.paused";
            data: {
              job_id: string;
              reason: string;
            };
          } | {
            type: "email.received";
            data: {
              message_id: string;
              in_reply_to: string | null;
              correlation_token: string | null;
              from: string;
              to: string[];
              subject: string;
              reply_text: string;
              received_at: string;
              metadata: Record<string, unknown> | null;
              object?: "received_email";
              kind?: "reply" | "message" | "bounce" | "complaint" | "run";
              inbox_id?: string | null;
              run_id?: string | null;
              from_name?: string | null;
              message_id_header?: string | null;
              in_reply_to_header?: string | null;
              auth?: {
                spf: string;
                dkim: string;
                dmarc: string;
                spf_domain?: string | null;
                dkim_domains?: string[];
                from_domain?: string | null;
                /** A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment). */
                dkim_aligned?: boolean;
                /** SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule. */
                spf_aligned?: boolean;
              };
              attachments?: {
                id: string;
                filename: string | null;
                content_type: string;
                size: number;
                /** Signed link, valid 7 days; needs no API key. */
                url: string;
              }[];
              truncated?: boolean;
            };
          } | {
            type: "email.bounced";
            data: {
              message_id: string;
              correlation_token: string | null;
              recipient: string;
              /** The enhanced status code (RFC 3463), such as 5.1.1. */
              status: string | null;
              diagnostic: string | null;
              /** A delivery-status report that came back, or the relay refusing the recipient. */
              source: "report" | "relay";
              suppressed: boolean;
              bounced_at: string;
              /** The send's `metadata`, byte for byte as it was given. */
              metadata: Record<string, unknown> | null;
            };
          } | {
            type: "email.complained";
            data: {
              message_id: string;
              correlation_token: string | null;
              /** Null when the report named none of the send's recipients. */
              recipient: string | null;
              feedback_type: string;
              user_agent: string | null;
              suppressed: boolean;
              complained_at: string;
              /** The send's `metadata`, byte for byte as it was given. */
              metadata: Record<string, unknown> | null;
            };
          } | {
            type: "connection.authenticated";
            data: {
              id: string;
              object: "connection";
              name: string;
              type: "token" | "mcp" | "oauth" | "totp" | "proxy";
              /** The project whose runs use it; null for every run of the organisation. */
              project_id: string | null;
              is_enabled: boolean;
              /** Whether a secret is stored. The secret itself is never returned. */
              has_secret: boolean;
              /** token and oauth: the environment variable runs get the secret in. */
              env_var_name: string | null;
              /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
              url: string | null;
              transport: "http" | "sse" | null;
              /** mcp: request headers as given, with ${SECRET} unexpanded. */
              headers: Record<string, string> | null;
              /** oauth: the configured provider. */
              provider: string | null;
              auth_status: "authenticated" | "pending" | "failed" | "expired";
              /** Why the status is what it is, in words. */
              auth_detail: string | null;
              auth_checked_at: string | null;
              /** oauth: when the current access token expires (it is refreshed before). */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            };
          } | {
            type: "connection.expired";
            data: {
              id: string;
              object: "connection";
              name: string;
              type: "token" | "mcp" | "oauth" | "totp" | "proxy";
              /** The project whose runs use it; null for every run of the organisation. */
              project_id: string | null;
              is_enabled: boolean;
              /** Whether a secret is stored. The secret itself is never returned. */
              has_secret: boolean;
              /** token and oauth: the environment variable runs get the secret in. */
              env_var_name: string | null;
              /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
              url: string | null;
              transport: "http" | "sse" | null;
              /** mcp: request headers as given, with ${SECRET} unexpanded. */
              headers: Record<string, string> | null;
              /** oauth: the configured provider. */
              provider: string | null;
              auth_status: "authenticated" | "pending" | "failed" | "expired";
              /** Why the status is what it is, in words. */
              auth_detail: string | null;
              auth_checked_at: string | null;
              /** oauth: when the current access token expires (it is refreshed before). */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            };
          } | {
            type: "profile.signed_out";
            data: {
              id: string;
              object: "profile";
              name: string;
              /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
              has_state: boolean;
              /** The sites the state holds: the origins of its storage and the domains of its cookies. */
              origins: string[];
              /** The size of the saved state (profiles.max_state_kb bounds it). */
              size_bytes: number;
              saved_at: string | null;
              /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
              saved_by_run_id: string | null;
              /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
              saved_via: "run" | "live_view" | "import" | null;
              last_used_at: string | null;
              last_used_by_run_id: string | null;
              /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
              check: {
                url: string;
                text: string | null;
                role: string | null;
                name: string | null;
              } | null;
              /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
              health: "unknown" | "signed_in" | "signed_out" | "expired";
              /** What the last check saw, in words. */
              health_detail: string | null;
              checked_at: string | null;
              /** When its state is erased; null: never. */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            };
          });
        };
      };
    };
  };
  "/v1/runs/{id}/events": {
    /** A run's live events: status changes, each step, the final envelope (server-sent events) */
    get: {
      parameters: {
        query?: never;
        header?: {
          /** Resume after this event id (sent by EventSource clients when they reconnect). */
          "last-event-id"?: string;
        };
        path: {
          /** A `run_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        /** The run's events as server-sent events: after Last-Event-ID when given, otherwise from its first; the stream ends after run.completed, run.failed, run.cancelled. */
        "200": {
          "text/event-stream": {
            /** Durable and increasing: send the last one you saw as Last-Event-ID to resume after it. */
            id: number;
            object: "event";
            /** False for an event of test mode (docs/api.md, Test mode). */
            livemode: boolean;
            /** What happened. The daemon adds types as it gains features: ignore types you do not know. */
            type: "run.status" | "run.step" | "run.needs_human" | "run.human_answered" | "run.completed" | "run.failed" | "run.cancelled" | "eval.completed" | "eval.cancelled" | "webhook.attempted" | "schedule.fired" | "schedule.skipped" | "schedule.paused" | "email.received" | "email.bounced" | "email.complained" | "connection.authenticated" | "connection.expired" | "profile.signed_out";
            /** The run the event is about, if any: such events are also in the run's stream. */
            run_id: string | null;
            created_at: string;
            /** The event's data: its schema depends on `type` (see oneOf). */
            data: unknown;
          } & ({
            type: "run.status";
            data: {
              run_id: string;
              from: "queued" | "running" | "succeeded" | "failed" | "cancelled" | null;
              to: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              /** Why, in words. */
              description: string;
            };
          } | {
            type: "run.step";
            data: {
              id: string;
              object: "run_step";
              run_id: string;
              /** Which attempt of the run made this step (a run is retried when the daemon died under it). */
              attempt: number;
              /** Order within the attempt, from 1. */
              seq: number;
              kind: "model" | "tool" | "person";
              /** The model id for a model call; the tool and action for a tool call (browser.navigate, run_code.python, finish). */
              name: string;
              /** What the step was given: the tool input, or a summary of the model request. */
              input: unknown;
              /** What the step produced, truncated. */
              output: string | null;
              is_error: boolean;
              duration_ms: number;
              usage: {
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** Signed link to the screenshot this step took, valid 7 days. */
              screenshot_url: string | null;
              created_at: string;
              run_cost_usd: number;
            };
          } | {
            type: "run.needs_human";
            data: {
              run_id: string;
              /** The run's wait for the answer (`wp_` prefix), as waiting_for.waitpoint_id names it. */
              waitpoint_id: string;
              request_id: string;
              kind: "takeover" | "answer" | "approve";
              question: string;
              asked_at: string;
              /** The request of an earlier attempt this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              expires_at: string;
              live_url: string | null;
              /** POST /v1/runs/{id}/human of this run. */
              answer_url: string;
            };
          } | {
            type: "run.human_answered";
            data: {
              run_id: string;
              request_id: string;
              kind: "takeover" | "answer" | "approve";
              answer: string | null;
              approved: boolean | null;
              note: string | null;
              /** Who answered: an API key (`key <id>`), a live link, or an email address. */
              answered_by: string;
              answered_via: "api" | "cli" | "mcp" | "email" | "live";
              answered_at: string;
            };
          } | {
            type: "run.completed";
            data: {
              task_id: string;
              object: "run";
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            };
          } | {
            type: "run.failed";
            data: {
              task_id: string;
              object: "run";
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            };
          } | {
            type: "run.cancelled";
            data: {
              task_id: string;
              object: "run";
              status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
              result: Record<string, unknown> | null;
              confidence: "high" | "medium" | "low" | null;
              evidence: {
                screenshot_url: string | null;
                matched_text: string | null;
                checked_at: string;
                /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
                recording_url: string | null;
                /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
                trace_url: string | null;
              } | null;
              failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
              /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
              failure_code: "budget_exceeded" | null;
              failure_detail: string | null;
              warnings: string[];
              usage: {
                duration_ms: number | null;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
              max_cost_usd: number | null;
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
              job_id: string | null;
              project_id: string;
              name: string | null;
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              attempt: number;
              progress: {
                steps: number;
                last_action: string | null;
              };
              /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
              waiting_for: {
                /** The wait (`wp_` prefix). */
                waitpoint_id: string;
                on: "person" | "takeover" | "email";
                /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
                timer: "runs" | "stopped";
                since: string;
                /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
                expires_at: string | null;
                /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
                request_id: string | null;
                /** A person's wait: what the agent asked for. */
                kind: "takeover" | "answer" | "approve" | null;
                question: string | null;
                asked_at: string | null;
                /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
                asked_again_of: string | null;
                /** A takeover: who holds the browser (`live link`, or an API key). */
                by: string | null;
                /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
                live_url: string | null;
              } | null;
              /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
              live_url: string | null;
              /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
              files: {
                /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
                name: string;
                /** Bytes. */
                size: number;
                /** SHA-256 of its bytes, lower-case hex. */
                sha256: string;
                /** By its name's extension; application/octet-stream when unknown. */
                content_type: string;
                /** Signed download link, usable without an API key until expires_at; served as an attachment. */
                url: string;
                /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
                expires_at: string;
              }[];
              /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
              mode: "agent" | "replay" | "replay_then_agent";
              /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
              sandbox: {
                /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
                label: string | null;
                /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
                host: string | null;
              };
              /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
              action_space: "dom" | "computer";
            };
          } | {
            type: "eval.completed";
            data: {
              id: string;
              object: "eval";
              job_id: string;
              status: "queued" | "running" | "completed" | "cancelled";
              replay: "auto" | "off";
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              /** The prompt its runs use instead of the job's; null: the job's. */
              prompt: string | null;
              settings: Record<string, unknown>;
              baseline_id: string | null;
              max_parallel: number;
              totals: {
                cases: number;
                passed: number;
                failed: number;
                errors: number;
                skipped: number;
                pending: number;
                running: number;
                /** passed / cases, from 0 to 1 (4 decimals). */
                pass_rate: number;
                /** The cases' runs' durations, added up. */
                duration_ms: number;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
            };
          } | {
            type: "eval.cancelled";
            data: {
              id: string;
              object: "eval";
              job_id: string;
              status: "queued" | "running" | "completed" | "cancelled";
              replay: "auto" | "off";
              /** One of haiku, sonnet, opus; default sonnet. */
              model: "haiku" | "sonnet" | "opus";
              /** The prompt its runs use instead of the job's; null: the job's. */
              prompt: string | null;
              settings: Record<string, unknown>;
              baseline_id: string | null;
              max_parallel: number;
              totals: {
                cases: number;
                passed: number;
                failed: number;
                errors: number;
                skipped: number;
                pending: number;
                running: number;
                /** passed / cases, from 0 to 1 (4 decimals). */
                pass_rate: number;
                /** The cases' runs' durations, added up. */
                duration_ms: number;
                input_tokens: number;
                output_tokens: number;
                cost_usd: number;
              };
              created_at: string;
              started_at: string | null;
              finished_at: string | null;
            };
          } | {
            type: "webhook.attempted";
            data: {
              delivery_id: string;
              /** The webhook-id header of every attempt of the delivery. */
              event_id: string;
              /** The delivered event's type. */
              event: string;
              run_id: string | null;
              url: string;
              attempt: number;
              status_code: number | null;
              latency_ms: number;
              error: string | null;
              status: "pending" | "succeeded" | "failed";
              next_attempt_at: string | null;
            };
          } | {
            type: "schedule.fired";
            data: {
              job_id: string;
              /** The time the firing was scheduled for. */
              slot: string;
              run_id: string;
            };
          } | {
            type: "schedule.skipped";
            data: {
              job_id: string;
              slot: string;
              /** What refused the run, as the API would have answered it (`missing_input`, `daily_cap_reached`, ...). */
              code: string;
              message: string;
              param: string | null;
            };
          } | {
            type: "schedule.paused";
            data: {
              job_id: string;
              reason: string;
            };
          } | {
            type: "email.received";
            data: {
              message_id: string;
              in_reply_to: string | null;
              correlation_token: string | null;
              from: string;
              to: string[];
              subject: string;
              reply_text: string;
              received_at: string;
              metadata: Record<string, unknown> | null;
              object?: "received_email";
              kind?: "reply" | "message" | "bounce" | "complaint" | "run";
              inbox_id?: string | null;
              run_id?: string | null;
              from_name?: string | null;
              message_id_header?: string | null;
              in_reply_to_header?: string | null;
              auth?: {
                spf: string;
                dkim: string;
                dmarc: string;
                spf_domain?: string | null;
                dkim_domains?: string[];
                from_domain?: string | null;
                /** A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment). */
                dkim_aligned?: boolean;
                /** SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule. */
                spf_aligned?: boolean;
              };
              attachments?: {
                id: string;
                filename: string | null;
                content_type: string;
                size: number;
                /** Signed link, valid 7 days; needs no API key. */
                url: string;
              }[];
              truncated?: boolean;
            };
          } | {
            type: "email.bounced";
            data: {
              message_id: string;
              correlation_token: string | null;
              recipient: string;
              /** The enhanced status code (RFC 3463), such as 5.1.1. */
              status: string | null;
              diagnostic: string | null;
              /** A delivery-status report that came back, or the relay refusing the recipient. */
              source: "report" | "relay";
              suppressed: boolean;
              bounced_at: string;
              /** The send's `metadata`, byte for byte as it was given. */
              metadata: Record<string, unknown> | null;
            };
          } | {
            type: "email.complained";
            data: {
              message_id: string;
              correlation_token: string | null;
              /** Null when the report named none of the send's recipients. */
              recipient: string | null;
              feedback_type: string;
              user_agent: string | null;
              suppressed: boolean;
              complained_at: string;
              /** The send's `metadata`, byte for byte as it was given. */
              metadata: Record<string, unknown> | null;
            };
          } | {
            type: "connection.authenticated";
            data: {
              id: string;
              object: "connection";
              name: string;
              type: "token" | "mcp" | "oauth" | "totp" | "proxy";
              /** The project whose runs use it; null for every run of the organisation. */
              project_id: string | null;
              is_enabled: boolean;
              /** Whether a secret is stored. The secret itself is never returned. */
              has_secret: boolean;
              /** token and oauth: the environment variable runs get the secret in. */
              env_var_name: string | null;
              /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
              url: string | null;
              transport: "http" | "sse" | null;
              /** mcp: request headers as given, with ${SECRET} unexpanded. */
              headers: Record<string, string> | null;
              /** oauth: the configured provider. */
              provider: string | null;
              auth_status: "authenticated" | "pending" | "failed" | "expired";
              /** Why the status is what it is, in words. */
              auth_detail: string | null;
              auth_checked_at: string | null;
              /** oauth: when the current access token expires (it is refreshed before). */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            };
          } | {
            type: "connection.expired";
            data: {
              id: string;
              object: "connection";
              name: string;
              type: "token" | "mcp" | "oauth" | "totp" | "proxy";
              /** The project whose runs use it; null for every run of the organisation. */
              project_id: string | null;
              is_enabled: boolean;
              /** Whether a secret is stored. The secret itself is never returned. */
              has_secret: boolean;
              /** token and oauth: the environment variable runs get the secret in. */
              env_var_name: string | null;
              /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
              url: string | null;
              transport: "http" | "sse" | null;
              /** mcp: request headers as given, with ${SECRET} unexpanded. */
              headers: Record<string, string> | null;
              /** oauth: the configured provider. */
              provider: string | null;
              auth_status: "authenticated" | "pending" | "failed" | "expired";
              /** Why the status is what it is, in words. */
              auth_detail: string | null;
              auth_checked_at: string | null;
              /** oauth: when the current access token expires (it is refreshed before). */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            };
          } | {
            type: "profile.signed_out";
            data: {
              id: string;
              object: "profile";
              name: string;
              /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
              has_state: boolean;
              /** The sites the state holds: the origins of its storage and the domains of its cookies. */
              origins: string[];
              /** The size of the saved state (profiles.max_state_kb bounds it). */
              size_bytes: number;
              saved_at: string | null;
              /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
              saved_by_run_id: string | null;
              /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
              saved_via: "run" | "live_view" | "import" | null;
              last_used_at: string | null;
              last_used_by_run_id: string | null;
              /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
              check: {
                url: string;
                text: string | null;
                role: string | null;
                name: string | null;
              } | null;
              /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
              health: "unknown" | "signed_in" | "signed_out" | "expired";
              /** What the last check saw, in words. */
              health_detail: string | null;
              checked_at: string | null;
              /** When its state is erased; null: never. */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            };
          });
        };
        /** The run has ended and the client has seen all its events (EventSource clients stop reconnecting). */
        "204": never;
      };
    };
  };
  "/v1/status": {
    /** How the daemon stands (its model provider and sandboxes) and the caller's organisation (spend today, active runs) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "status";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            version: string;
            started_at: string;
            model_provider: {
              /** models.provider */
              name: "anthropic" | "openai";
              /** Whether the daemon has the key or base URL the provider needs. */
              configured: boolean;
              /** What is missing, naming the setting; null when configured. */
              problem: string | null;
              /** Where model calls go, without credentials. */
              base_url: string | null;
              /** Whether the API answered a request for its model list (no tokens spent); null when not configured. */
              reachable: boolean | null;
              /** Whether it accepted the key; null when that could not be told. */
              key_accepted: boolean | null;
              detail: string;
              /** When the model API was asked; its answer stands for 30 s, for every caller. Null when not asked. */
              checked_at: string | null;
            };
            sandbox: {
              driver: "local" | "docker";
              /** false for the local driver: task code runs as the daemon's user. */
              isolated: boolean;
              image: string | null;
              /** docker: the OCI runtime sandboxes run under (runc, or runsc for gVisor); null for the local driver. */
              runtime: string | null;
              warm_pool: {
                size: number;
                ready: number;
              } | null;
              firewall: {
                installed: boolean;
                detail: string;
              } | null;
              /** Every Docker engine sandboxes run on (sandbox.hosts; the one local engine without it); [] for the local driver. */
              hosts: {
                name: string;
                /** The engine, without credentials. */
                url: string;
                /** down: it did not answer its last check, and gets no runs. */
                state: "up" | "down";
                /** Why it is down, as its last check found and what to do about it (no answer, an SSH host key not in known_hosts or changed, the sandbox image missing, its firewall missing); null when up. Never holds key material beyond a public key fingerprint. */
                problem: string | null;
                capacity: {
                  runs: number;
                  memory_mb: number;
                };
                load: {
                  runs: number;
                  memory_mb: number;
                };
                pool: {
                  size: number;
                  ready: number;
                };
                /** The OCI runtime its sandboxes run under (runc, runsc). */
                runtime: string;
                labels: string[];
                firewall: {
                  /** false: the operator opted this host out of the firewall by name. */
                  required: boolean;
                  /** Whether its sandbox firewall rules are in place; null when not checked. */
                  installed: boolean | null;
                  detail: string | null;
                };
              }[];
            };
            /** The caller's organisation: its spend today (UTC) and its daily cap. */
            spend: {
              today_usd: number;
              daily_cap_usd: number;
            };
            runs: {
              /** The caller's organisation's queued plus running runs. */
              active: number;
              /** How many it may have before POST /v1/runs answers 429. */
              max_pending: number;
            };
            email: {
              /** mail.relay_domain: the domain of the installation's addresses; null when email is off. */
              relay_domain: string | null;
              /** How mail leaves: through mail.smtp_url, kept in the data directory, or not at all. */
              sending: "smtp" | "capture" | "off";
              /** The relay's host:port, without credentials. */
              relay: string | null;
              /** Where the daemon's SMTP server takes mail (host:port); null when it receives none. */
              receiving: string | null;
              /** The host MX records must name for mail to reach it (mail.mx_host). */
              mx_host: string | null;
              /** What keeps email from working, naming the setting; null when nothing does. */
              problem: string | null;
            };
          };
        };
      };
    };
  };
  "/v1/connections": {
    /** List connections with their authentication status; never their secrets */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "connection";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              name: string;
              type: "token" | "mcp" | "oauth" | "totp" | "proxy";
              /** The project whose runs use it; null for every run of the organisation. */
              project_id: string | null;
              is_enabled: boolean;
              /** Whether a secret is stored. The secret itself is never returned. */
              has_secret: boolean;
              /** token and oauth: the environment variable runs get the secret in. */
              env_var_name: string | null;
              /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
              url: string | null;
              transport: "http" | "sse" | null;
              /** mcp: request headers as given, with ${SECRET} unexpanded. */
              headers: Record<string, string> | null;
              /** oauth: the configured provider. */
              provider: string | null;
              auth_status: "authenticated" | "pending" | "failed" | "expired";
              /** Why the status is what it is, in words. */
              auth_detail: string | null;
              auth_checked_at: string | null;
              /** oauth: when the current access token expires (it is refreshed before). */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Create a token or mcp connection (an mcp one is checked by connecting before it is answered) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody: {
        "application/json": {
          /** Letters, digits, _ and -, up to 40; unique in its scope. */
          name: string;
          type: "token" | "mcp" | "oauth" | "totp" | "proxy";
          /** Write-only. totp: the base32 seed, or an otpauth://totp/ URI with its digits, period and algorithm. */
          secret?: string;
          env_var_name?: string;
          url?: string;
          transport?: "http" | "sse";
          headers?: Record<string, string>;
          project_id?: string;
          is_enabled?: boolean;
        };
      };
      responses: {
        "201": {
          "application/json": {
            id: string;
            object: "connection";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            type: "token" | "mcp" | "oauth" | "totp" | "proxy";
            /** The project whose runs use it; null for every run of the organisation. */
            project_id: string | null;
            is_enabled: boolean;
            /** Whether a secret is stored. The secret itself is never returned. */
            has_secret: boolean;
            /** token and oauth: the environment variable runs get the secret in. */
            env_var_name: string | null;
            /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
            url: string | null;
            transport: "http" | "sse" | null;
            /** mcp: request headers as given, with ${SECRET} unexpanded. */
            headers: Record<string, string> | null;
            /** oauth: the configured provider. */
            provider: string | null;
            auth_status: "authenticated" | "pending" | "failed" | "expired";
            /** Why the status is what it is, in words. */
            auth_detail: string | null;
            auth_checked_at: string | null;
            /** oauth: when the current access token expires (it is refreshed before). */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/connections/links": {
    /** Start hosted connect: an oauth connection and a single-use link (15 minutes) to authorise it in a browser */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody: {
        "application/json": {
          provider: string;
          /** Default: the provider name. */
          name?: string;
          project_id?: string;
          /** Default: <PROVIDER>_ACCESS_TOKEN, or the preset's. */
          env_var_name?: string;
          /** Where the browser goes once connected (with connection_id and status in the query). */
          redirect_url?: string;
        };
      };
      responses: {
        "201": {
          "application/json": {
            object: "connection_link";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            /** Ask GET /v1/connections/links/{id} how the flow is going. */
            id: string;
            connection_id: string;
            /** Open once in a browser, within 15 minutes. */
            url: string;
            expires_at: string;
          };
        };
      };
    };
  };
  "/v1/connections/links/{id}": {
    /** How a hosted connect link's flow stands: pending, opened, authenticated, failed (with why) or expired */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `clk_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "connection_link";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            id: string;
            connection_id: string;
            /** pending: not opened yet; opened: someone is signing in; failed: see detail (a connection that was authenticated before keeps its tokens); expired: not opened, or not finished, in time. */
            status: "pending" | "opened" | "authenticated" | "failed" | "expired";
            detail: string | null;
            /** Until when the link can be opened; once opened, until when the flow can finish. */
            expires_at: string;
          };
        };
      };
    };
  };
  "/v1/connections/{id}": {
    /** Get a connection */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `conn_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "connection";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            type: "token" | "mcp" | "oauth" | "totp" | "proxy";
            /** The project whose runs use it; null for every run of the organisation. */
            project_id: string | null;
            is_enabled: boolean;
            /** Whether a secret is stored. The secret itself is never returned. */
            has_secret: boolean;
            /** token and oauth: the environment variable runs get the secret in. */
            env_var_name: string | null;
            /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
            url: string | null;
            transport: "http" | "sse" | null;
            /** mcp: request headers as given, with ${SECRET} unexpanded. */
            headers: Record<string, string> | null;
            /** oauth: the configured provider. */
            provider: string | null;
            auth_status: "authenticated" | "pending" | "failed" | "expired";
            /** Why the status is what it is, in words. */
            auth_detail: string | null;
            auth_checked_at: string | null;
            /** oauth: when the current access token expires (it is refreshed before). */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
    /** Delete a connection and its secret */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `conn_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "connection";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
    /** Update a connection; a new secret replaces the stored one */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `conn_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          /** Letters, digits, _ and -, up to 40; unique in its scope. */
          name?: string;
          is_enabled?: boolean;
          secret?: (string | null);
          env_var_name?: (string | null);
          url?: string;
          transport?: "http" | "sse";
          headers?: (Record<string, string> | null);
        };
      };
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "connection";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            type: "token" | "mcp" | "oauth" | "totp" | "proxy";
            /** The project whose runs use it; null for every run of the organisation. */
            project_id: string | null;
            is_enabled: boolean;
            /** Whether a secret is stored. The secret itself is never returned. */
            has_secret: boolean;
            /** token and oauth: the environment variable runs get the secret in. */
            env_var_name: string | null;
            /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
            url: string | null;
            transport: "http" | "sse" | null;
            /** mcp: request headers as given, with ${SECRET} unexpanded. */
            headers: Record<string, string> | null;
            /** oauth: the configured provider. */
            provider: string | null;
            auth_status: "authenticated" | "pending" | "failed" | "expired";
            /** Why the status is what it is, in words. */
            auth_detail: string | null;
            auth_checked_at: string | null;
            /** oauth: when the current access token expires (it is refreshed before). */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/connections/{id}/check": {
    /** Check a connection now (mcp: connect and list tools; oauth: refresh the token) and answer its status */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `conn_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "connection";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            type: "token" | "mcp" | "oauth" | "totp" | "proxy";
            /** The project whose runs use it; null for every run of the organisation. */
            project_id: string | null;
            is_enabled: boolean;
            /** Whether a secret is stored. The secret itself is never returned. */
            has_secret: boolean;
            /** token and oauth: the environment variable runs get the secret in. */
            env_var_name: string | null;
            /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
            url: string | null;
            transport: "http" | "sse" | null;
            /** mcp: request headers as given, with ${SECRET} unexpanded. */
            headers: Record<string, string> | null;
            /** oauth: the configured provider. */
            provider: string | null;
            auth_status: "authenticated" | "pending" | "failed" | "expired";
            /** Why the status is what it is, in words. */
            auth_detail: string | null;
            auth_checked_at: string | null;
            /** oauth: when the current access token expires (it is refreshed before). */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/connections/{id}/tools": {
    /** An mcp connection's tools as runs are offered them: connects now, like a check, and records its status */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `conn_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "connection_tools";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            connection_id: string;
            /** What connecting now showed; also recorded on the connection. */
            auth_status: "authenticated" | "pending" | "failed" | "expired";
            auth_detail: string | null;
            /** The tools runs are offered, in the order the server listed them; none when the server could not be used. */
            data: {
              /** The name runs see: <connection>__<tool>. */
              name: string;
              /** The server's own name for it. */
              tool: string;
              title: string | null;
              description: string | null;
              input_schema: Record<string, unknown>;
            }[];
          };
        };
      };
    };
  };
  "/v1/profiles": {
    /** List profiles (saved logins): the sites each holds and its health, never its state */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "profile";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              name: string;
              /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
              has_state: boolean;
              /** The sites the state holds: the origins of its storage and the domains of its cookies. */
              origins: string[];
              /** The size of the saved state (profiles.max_state_kb bounds it). */
              size_bytes: number;
              saved_at: string | null;
              /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
              saved_by_run_id: string | null;
              /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
              saved_via: "run" | "live_view" | "import" | null;
              last_used_at: string | null;
              last_used_by_run_id: string | null;
              /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
              check: {
                url: string;
                text: string | null;
                role: string | null;
                name: string | null;
              } | null;
              /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
              health: "unknown" | "signed_in" | "signed_out" | "expired";
              /** What the last check saw, in words. */
              health_detail: string | null;
              checked_at: string | null;
              /** When its state is erased; null: never. */
              expires_at: string | null;
              created_at: string;
              updated_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Create a profile: empty (a run or a person fills it), or imported from a Playwright storage state */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody: {
        "application/json": {
          /** Letters, digits, ., _ and -, up to 64; unique in the organisation. Runs name it in `profile` and `save_profile`. */
          name: string;
          check?: {
            /** A page of the site that shows, only when signed in, the text or the role below. */
            url: string;
            /** Text the page shows only when signed in (Sign out, the account name). */
            text?: string;
            /** Or: the ARIA role of an element shown only when signed in (link, button), with its `name`. */
            role?: string;
            /** The accessible name of the element of `role`. */
            name?: string;
          };
          /** When its state is erased; default never. */
          expires_at?: string;
          /** Write-only: a browser state as Playwright's storageState() writes it. Sealed under the master key; never answered. Leave it out for a profile a run or a person fills. */
          state?: {
            cookies: {
              name: string;
              value: string;
              domain: string;
              path: string;
              /** Unix time in seconds; -1 for a session cookie. */
              expires: number;
              httpOnly: boolean;
              secure: boolean;
              sameSite: "Strict" | "Lax" | "None";
            }[];
            origins: {
              origin: string;
              localStorage: {
                name: string;
                value: string;
              }[];
              /** Playwright's serialized databases (storageState({ indexedDB: true })). */
              indexedDB?: unknown[];
            }[];
            [key: string]: unknown;
          };
        };
      };
      responses: {
        "201": {
          "application/json": {
            id: string;
            object: "profile";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
            has_state: boolean;
            /** The sites the state holds: the origins of its storage and the domains of its cookies. */
            origins: string[];
            /** The size of the saved state (profiles.max_state_kb bounds it). */
            size_bytes: number;
            saved_at: string | null;
            /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
            saved_by_run_id: string | null;
            /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
            saved_via: "run" | "live_view" | "import" | null;
            last_used_at: string | null;
            last_used_by_run_id: string | null;
            /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
            check: {
              url: string;
              text: string | null;
              role: string | null;
              name: string | null;
            } | null;
            /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
            health: "unknown" | "signed_in" | "signed_out" | "expired";
            /** What the last check saw, in words. */
            health_detail: string | null;
            checked_at: string | null;
            /** When its state is erased; null: never. */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/profiles/{id}": {
    /** Get a profile */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `prf_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "profile";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
            has_state: boolean;
            /** The sites the state holds: the origins of its storage and the domains of its cookies. */
            origins: string[];
            /** The size of the saved state (profiles.max_state_kb bounds it). */
            size_bytes: number;
            saved_at: string | null;
            /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
            saved_by_run_id: string | null;
            /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
            saved_via: "run" | "live_view" | "import" | null;
            last_used_at: string | null;
            last_used_by_run_id: string | null;
            /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
            check: {
              url: string;
              text: string | null;
              role: string | null;
              name: string | null;
            } | null;
            /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
            health: "unknown" | "signed_in" | "signed_out" | "expired";
            /** What the last check saw, in words. */
            health_detail: string | null;
            checked_at: string | null;
            /** When its state is erased; null: never. */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
    /** Delete a profile and every sealed copy of its state */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `prf_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "profile";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
    /** Rename a profile, change its check or expiry, or replace its state */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `prf_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          /** Letters, digits, ., _ and -, up to 64; unique in the organisation. Runs name it in `profile` and `save_profile`. */
          name?: string;
          check?: ({
            /** A page of the site that shows, only when signed in, the text or the role below. */
            url: string;
            /** Text the page shows only when signed in (Sign out, the account name). */
            text?: string;
            /** Or: the ARIA role of an element shown only when signed in (link, button), with its `name`. */
            role?: string;
            /** The accessible name of the element of `role`. */
            name?: string;
          } | null);
          expires_at?: string | null;
          /** Write-only: a browser state as Playwright's storageState() writes it. Sealed under the master key; never answered. Replaces the saved one. */
          state?: {
            cookies: {
              name: string;
              value: string;
              domain: string;
              path: string;
              /** Unix time in seconds; -1 for a session cookie. */
              expires: number;
              httpOnly: boolean;
              secure: boolean;
              sameSite: "Strict" | "Lax" | "None";
            }[];
            origins: {
              origin: string;
              localStorage: {
                name: string;
                value: string;
              }[];
              /** Playwright's serialized databases (storageState({ indexedDB: true })). */
              indexedDB?: unknown[];
            }[];
            [key: string]: unknown;
          };
        };
      };
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "profile";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
            has_state: boolean;
            /** The sites the state holds: the origins of its storage and the domains of its cookies. */
            origins: string[];
            /** The size of the saved state (profiles.max_state_kb bounds it). */
            size_bytes: number;
            saved_at: string | null;
            /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
            saved_by_run_id: string | null;
            /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
            saved_via: "run" | "live_view" | "import" | null;
            last_used_at: string | null;
            last_used_by_run_id: string | null;
            /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
            check: {
              url: string;
              text: string | null;
              role: string | null;
              name: string | null;
            } | null;
            /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
            health: "unknown" | "signed_in" | "signed_out" | "expired";
            /** What the last check saw, in words. */
            health_detail: string | null;
            checked_at: string | null;
            /** When its state is erased; null: never. */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/profiles/{id}/check": {
    /** Check now whether a profile is signed in (its state in a sandbox of its own, its check's page looked at) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `prf_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "profile";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            name: string;
            /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
            has_state: boolean;
            /** The sites the state holds: the origins of its storage and the domains of its cookies. */
            origins: string[];
            /** The size of the saved state (profiles.max_state_kb bounds it). */
            size_bytes: number;
            saved_at: string | null;
            /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
            saved_by_run_id: string | null;
            /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
            saved_via: "run" | "live_view" | "import" | null;
            last_used_at: string | null;
            last_used_by_run_id: string | null;
            /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
            check: {
              url: string;
              text: string | null;
              role: string | null;
              name: string | null;
            } | null;
            /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
            health: "unknown" | "signed_in" | "signed_out" | "expired";
            /** What the last check saw, in words. */
            health_detail: string | null;
            checked_at: string | null;
            /** When its state is erased; null: never. */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/profiles/{id}/runs": {
    /** The runs that used a profile, newest first, and whether each saved it */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path: {
          /** A `prf_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              object: "profile_use";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              run_id: string;
              attempt: number;
              /** What the attempt got: read_write when it was the one run that may write the profile back. */
              access: "read" | "read_write";
              used_at: string;
              /** When it wrote its state back; null when it did not. */
              saved_at: string | null;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
  };
  "/v1/emails": {
    /** List sent emails, newest first */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "email";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              message_id: string;
              inbox_id: string | null;
              status: "sent" | "scheduled" | "pending_approval" | "rejected";
              from_address: string;
              from_name: string;
              subject: string;
              to: string[];
              cc: string[];
              bcc: string[];
              reply_to: {
                address: string | null;
                reason: "sending_domain" | "relay_fallback" | "override" | "none";
                detail: string;
              } | null;
              correlation_token: string;
              message_id_header?: string;
              metadata?: Record<string, unknown> | null;
              client_id?: string | null;
              send_at?: string | null;
              suppressed?: string[];
              recipients: {
                address: string;
                kind: "to" | "cc" | "bcc";
                status: "queued" | "delivered" | "deferred" | "bounced" | "complained" | "failed" | "suppressed" | "rejected";
                detail: string | null;
                updated_at: string;
              }[];
              created_at: string;
              updated_at?: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Send an email from the organisation's identity */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody: {
        "application/json": {
          /** One address, or a list that is ONE message whose recipients see each other. */
          to: (string | string[]);
          cc?: string[];
          /** Never written into a header. */
          bcc?: string[];
          subject: string;
          /** Rendered to email-safe HTML with inlined CSS. */
          body_markdown?: string;
          /** Pre-rendered; takes precedence over body_markdown. */
          body_html?: string;
          text?: string;
          /** Display name; defaults to the inbox's or the organisation's name. */
          from_name?: string;
          /** Overrides the correlation Reply-To; replies are then not threaded back. */
          reply_to?: string;
          /** Idempotency key: a repeat returns the original send and sends nothing. */
          client_id?: string;
          /** Opaque; echoed byte for byte on the reply webhook. */
          metadata?: Record<string, unknown>;
          /** Additive: send at this time (status scheduled). */
          send_at?: string;
        };
      };
      responses: {
        "202": {
          "application/json": {
            message_id: string;
            from_address: string;
            correlation_token: string;
            status: "sent" | "scheduled" | "pending_approval" | "rejected";
            reply_to: {
              address: string | null;
              reason: "sending_domain" | "relay_fallback" | "override" | "none";
              detail: string;
            } | null;
            suppressed: string[];
          };
        };
      };
    };
  };
  "/v1/emails/identity": {
    /** The organisation's email address and inbound callback */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "email_identity";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            address: string;
            username: string;
            relay_address: string;
            callback_url: string | null;
            domain: {
              name: string;
              verified: boolean;
              verified_at: string | null;
            } | null;
            require_approval: boolean;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
    /** Allocate (first call) or change the email identity; answers its webhook_secret */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody?: {
        "application/json": {
          /** https endpoint for email.received, email.bounced and email.complained. */
          callback_url?: string | null;
          /** 3 to 32 of a-z, 0-9 and hyphen; the local part of the address. */
          username?: string;
          /** Additive: the organisation's own sending domain; used once its MX is verified. */
          domain?: string | null;
          /** Additive: mint a new webhook_secret; the previous one keeps signing for 24 h. */
          rotate_webhook_secret?: boolean;
        };
      };
      responses: {
        "200": {
          "application/json": {
            object: "email_identity";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            address: string;
            username: string;
            relay_address: string;
            callback_url: string | null;
            domain: {
              name: string;
              verified: boolean;
              verified_at: string | null;
            } | null;
            require_approval: boolean;
            created_at: string;
            updated_at: string;
            /** whsec_...: verifies email webhooks (Standard Webhooks). Returned by POST only. */
            webhook_secret: string;
            previous_webhook_secret_expires_at: string | null;
          };
        };
      };
    };
  };
  "/v1/emails/identity/domain/verify": {
    /** Check the sending domain's MX record and list the records to publish */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            domain: string;
            verified: boolean;
            mx_found: string[];
            expected_mx: string;
            detail: string;
            records: {
              mx: string;
              spf: string;
              dkim: string | null;
            };
          };
        };
      };
    };
  };
  "/v1/emails/suppressions": {
    /** Recipients no longer sent to after a hard bounce or a complaint */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page (an address). */
          cursor?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              object: "email_suppression";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              address: string;
              reason: "bounce" | "complaint";
              detail: string | null;
              email_id: string | null;
              created_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
  };
  "/v1/emails/suppressions/{address}": {
    /** Send to a suppressed recipient again */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          address: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            address: string;
            object: "email_suppression";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
  };
  "/v1/emails/received": {
    /** List received emails, newest first (without their bodies), by inbox, run or time */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
          /** Only mail to this inbox. */
          inbox?: string;
          /** Only mail to this run's address. */
          run?: string;
          /** Only mail received at or after this time (RFC 3339). */
          since?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              message_id: string;
              in_reply_to: string | null;
              correlation_token: string | null;
              from: string;
              to: string[];
              subject: string;
              reply_text: string;
              received_at: string;
              metadata: Record<string, unknown> | null;
              object?: "received_email";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              kind?: "reply" | "message" | "bounce" | "complaint" | "run";
              inbox_id?: string | null;
              run_id?: string | null;
              from_name?: string | null;
              message_id_header?: string | null;
              in_reply_to_header?: string | null;
              auth?: {
                spf: string;
                dkim: string;
                dmarc: string;
                spf_domain?: string | null;
                dkim_domains?: string[];
                from_domain?: string | null;
                /** A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment). */
                dkim_aligned?: boolean;
                /** SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule. */
                spf_aligned?: boolean;
              };
              attachments?: {
                id: string;
                filename: string | null;
                content_type: string;
                size: number;
                /** Signed link, valid 7 days; needs no API key. */
                url: string;
              }[];
              truncated?: boolean;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
  };
  "/v1/emails/received/{id}": {
    /** A received email as its webhook carried it, with fresh attachment links */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `msg_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            message_id: string;
            in_reply_to: string | null;
            correlation_token: string | null;
            from: string;
            to: string[];
            subject: string;
            text: string;
            html: string | null;
            reply_text: string;
            received_at: string;
            metadata: Record<string, unknown> | null;
            object?: "received_email";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            kind?: "reply" | "message" | "bounce" | "complaint" | "run";
            inbox_id?: string | null;
            run_id?: string | null;
            from_name?: string | null;
            message_id_header?: string | null;
            in_reply_to_header?: string | null;
            auth?: {
              spf: string;
              dkim: string;
              dmarc: string;
              spf_domain?: string | null;
              dkim_domains?: string[];
              from_domain?: string | null;
              /** A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment). */
              dkim_aligned?: boolean;
              /** SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule. */
              spf_aligned?: boolean;
            };
            attachments?: {
              id: string;
              filename: string | null;
              content_type: string;
              size: number;
              /** Signed link, valid 7 days; needs no API key. */
              url: string;
            }[];
            truncated?: boolean;
          };
        };
      };
    };
  };
  "/v1/emails/attachments/{id}": {
    /** Download an attachment of a received email by its signed link */
    get: {
      parameters: {
        query?: {
          /** Unix time (seconds) after which the link answers 410. */
          expires?: number;
          /** HMAC signature of the id and expiry. */
          sig?: string;
        };
        header?: never;
        path: {
          /** A `att_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        /** The attachment, as a download. */
        "200": {
          "application/octet-stream": string;
        };
        "403": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "404": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
        "410": {
          "application/json": components["schemas"]["ErrorResponse"];
        };
      };
    };
  };
  "/v1/emails/{id}": {
    /** A sent email with the delivery state of each recipient */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `msg_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "email";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            message_id: string;
            inbox_id: string | null;
            status: "sent" | "scheduled" | "pending_approval" | "rejected";
            from_address: string;
            from_name: string;
            subject: string;
            to: string[];
            cc: string[];
            bcc: string[];
            reply_to: {
              address: string | null;
              reason: "sending_domain" | "relay_fallback" | "override" | "none";
              detail: string;
            } | null;
            correlation_token: string;
            message_id_header?: string;
            metadata?: Record<string, unknown> | null;
            client_id?: string | null;
            send_at?: string | null;
            suppressed?: string[];
            recipients: {
              address: string;
              kind: "to" | "cc" | "bcc";
              status: "queued" | "delivered" | "deferred" | "bounced" | "complained" | "failed" | "suppressed" | "rejected";
              detail: string | null;
              updated_at: string;
            }[];
            created_at: string;
            updated_at?: string;
          };
        };
      };
    };
  };
  "/v1/emails/{id}/simulate_reply": {
    /** Feed a reply to a sent email through the inbound path, as if its recipient had answered (for trying the reply webhook) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `msg_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          /** The reply (default: a line saying it is simulated). */
          text?: string;
          /** An HTML part beside the text. */
          html?: string;
          /** Who replies (default: the send's first recipient). */
          from?: string;
        };
      };
      responses: {
        "201": {
          "application/json": {
            message_id: string;
            in_reply_to: string | null;
            correlation_token: string | null;
            from: string;
            to: string[];
            subject: string;
            text: string;
            html: string | null;
            reply_text: string;
            received_at: string;
            metadata: Record<string, unknown> | null;
            object?: "received_email";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            kind?: "reply" | "message" | "bounce" | "complaint" | "run";
            inbox_id?: string | null;
            run_id?: string | null;
            from_name?: string | null;
            message_id_header?: string | null;
            in_reply_to_header?: string | null;
            auth?: {
              spf: string;
              dkim: string;
              dmarc: string;
              spf_domain?: string | null;
              dkim_domains?: string[];
              from_domain?: string | null;
              /** A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment). */
              dkim_aligned?: boolean;
              /** SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule. */
              spf_aligned?: boolean;
            };
            attachments?: {
              id: string;
              filename: string | null;
              content_type: string;
              size: number;
              /** Signed link, valid 7 days; needs no API key. */
              url: string;
            }[];
            truncated?: boolean;
          };
        };
      };
    };
  };
  "/v1/emails/{id}/raw": {
    /** The email as it was built and sent (message/rfc822) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `msg_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": never;
      };
    };
  };
  "/v1/inboxes": {
    /** List inboxes, newest first */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "inbox";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              address: string;
              username: string;
              display_name: string | null;
              callback_url: string | null;
              created_at: string;
              updated_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Create an inbox: another address of the organisation */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
      };
      requestBody?: {
        "application/json": {
          /** 3 to 32 of a-z, 0-9 and hyphen, unique; default the identity's username and a random suffix. */
          username?: string;
          /** The From name of its messages; default the organisation's name. */
          display_name?: string | null;
          /** Target of this inbox's email events; null uses the identity's callback_url. */
          callback_url?: string | null;
        };
      };
      responses: {
        "201": {
          "application/json": {
            id: string;
            object: "inbox";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            address: string;
            username: string;
            display_name: string | null;
            callback_url: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/inboxes/{id}": {
    /** Get an inbox */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `inb_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "inbox";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            address: string;
            username: string;
            display_name: string | null;
            callback_url: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
    /** Delete an inbox: its address stops receiving */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `inb_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "inbox";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
    /** Change an inbox's display name or callback */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `inb_` id. */
          id: string;
        };
      };
      requestBody?: {
        "application/json": {
          /** The From name of its messages; default the organisation's name. */
          display_name?: string | null;
          /** Target of this inbox's email events; null uses the identity's callback_url. */
          callback_url?: string | null;
        };
      };
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "inbox";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            address: string;
            username: string;
            display_name: string | null;
            callback_url: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
    };
  };
  "/v1/inboxes/{id}/messages": {
    /** Send an email from an inbox, like POST /emails */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `inb_` id. */
          id: string;
        };
      };
      requestBody: {
        "application/json": {
          /** One address, or a list that is ONE message whose recipients see each other. */
          to: (string | string[]);
          cc?: string[];
          /** Never written into a header. */
          bcc?: string[];
          subject: string;
          /** Rendered to email-safe HTML with inlined CSS. */
          body_markdown?: string;
          /** Pre-rendered; takes precedence over body_markdown. */
          body_html?: string;
          text?: string;
          /** Display name; defaults to the inbox's or the organisation's name. */
          from_name?: string;
          /** Overrides the correlation Reply-To; replies are then not threaded back. */
          reply_to?: string;
          /** Idempotency key: a repeat returns the original send and sends nothing. */
          client_id?: string;
          /** Opaque; echoed byte for byte on the reply webhook. */
          metadata?: Record<string, unknown>;
          /** Additive: send at this time (status scheduled). */
          send_at?: string;
        };
      };
      responses: {
        "202": {
          "application/json": {
            message_id: string;
            from_address: string;
            correlation_token: string;
            status: "sent" | "scheduled" | "pending_approval" | "rejected";
            reply_to: {
              address: string | null;
              reason: "sending_domain" | "relay_fallback" | "override" | "none";
              detail: string;
            } | null;
            suppressed: string[];
          };
        };
      };
    };
  };
  "/v1/files": {
    /** List uploaded files, newest first */
    get: {
      parameters: {
        query?: {
          /** Page size, 1 to 200. */
          limit?: number;
          /** The next_cursor of the previous page. */
          cursor?: string;
          /** Only the files of this content: its hex SHA-256, lower case. */
          sha256?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            object: "list";
            data: {
              id: string;
              object: "file";
              /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
              livemode: boolean;
              /** The sanitised name: what a run sees under /workspace/in/. */
              name: string;
              /** Bytes. */
              size: number;
              /** Hex SHA-256 of the content, computed while it was received. */
              sha256: string;
              content_type: string;
              created_at: string;
            }[];
            has_more: boolean;
            next_cursor: string | null;
          };
        };
      };
    };
    /** Upload a file for runs to use: the raw bytes (any content type but multipart; the name in ?name=) or multipart/form-data (its first file part) */
    post: {
      parameters: {
        query?: {
          /** The file's name (required for a raw body; for multipart it replaces the part's filename). Sanitised: directories, control and bidi characters dropped, at most 200 bytes. */
          name?: string;
        };
        header?: never;
        path?: never;
      };
      requestBody?: never;
      responses: {
        "201": {
          "application/json": {
            id: string;
            object: "file";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            /** The sanitised name: what a run sees under /workspace/in/. */
            name: string;
            /** Bytes. */
            size: number;
            /** Hex SHA-256 of the content, computed while it was received. */
            sha256: string;
            content_type: string;
            created_at: string;
          };
        };
      };
    };
  };
  "/v1/files/{id}": {
    /** An uploaded file's record */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `file_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "file";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            /** The sanitised name: what a run sees under /workspace/in/. */
            name: string;
            /** Bytes. */
            size: number;
            /** Hex SHA-256 of the content, computed while it was received. */
            sha256: string;
            content_type: string;
            created_at: string;
          };
        };
      };
    };
    /** Delete an uploaded file; refused (409) while a queued or running run takes it as input */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `file_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": {
          "application/json": {
            id: string;
            object: "file";
            /** False for an object of test mode (made with an ek_test_ key), true for a live one (docs/api.md, Test mode). */
            livemode: boolean;
            deleted: true;
          };
        };
      };
    };
  };
  "/v1/files/{id}/content": {
    /** Download an uploaded file (streamed, as an attachment) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** A `file_` id. */
          id: string;
        };
      };
      requestBody?: never;
      responses: {
        "200": never;
      };
    };
  };
}

export interface webhooks {
  "run.needs_human": {
    /** The run's agent asked for a person (request_human) and waits: `{run_id, waitpoint_id, request_id, kind, question, asked_at, asked_again_of, expires_at, live_url, answer_url}`; the run stays `running`, its `waiting_for` says the same. Sent to the run's `callback_url`, signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "run.needs_human";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            run_id: string;
            /** The run's wait for the answer (`wp_` prefix), as waiting_for.waitpoint_id names it. */
            waitpoint_id: string;
            request_id: string;
            kind: "takeover" | "answer" | "approve";
            question: string;
            asked_at: string;
            /** The request of an earlier attempt this one asks again, because that attempt ended before anybody answered. */
            asked_again_of: string | null;
            expires_at: string;
            live_url: string | null;
            /** POST /v1/runs/{id}/human of this run. */
            answer_url: string;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "run.human_answered": {
    /** A person answered what the agent asked, and the agent goes on: `{run_id, request_id, kind, answer, approved, note, answered_by, answered_via, answered_at}`. Sent to the run's `callback_url`, signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "run.human_answered";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            run_id: string;
            request_id: string;
            kind: "takeover" | "answer" | "approve";
            answer: string | null;
            approved: boolean | null;
            note: string | null;
            /** Who answered: an API key (`key <id>`), a live link, or an email address. */
            answered_by: string;
            answered_via: "api" | "cli" | "mcp" | "email" | "live";
            answered_at: string;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "run.completed": {
    /** The run succeeded: its final envelope, as `GET /v1/runs/{id}` answers it. Sent to the run's `callback_url`, signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "run.completed";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            task_id: string;
            object: "run";
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            result: Record<string, unknown> | null;
            confidence: "high" | "medium" | "low" | null;
            evidence: {
              screenshot_url: string | null;
              matched_text: string | null;
              checked_at: string;
              /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
              recording_url: string | null;
              /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
              trace_url: string | null;
            } | null;
            failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
            /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
            failure_code: "budget_exceeded" | null;
            failure_detail: string | null;
            warnings: string[];
            usage: {
              duration_ms: number | null;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
            max_cost_usd: number | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            job_id: string | null;
            project_id: string;
            name: string | null;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            attempt: number;
            progress: {
              steps: number;
              last_action: string | null;
            };
            /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
            waiting_for: {
              /** The wait (`wp_` prefix). */
              waitpoint_id: string;
              on: "person" | "takeover" | "email";
              /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
              timer: "runs" | "stopped";
              since: string;
              /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
              expires_at: string | null;
              /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
              request_id: string | null;
              /** A person's wait: what the agent asked for. */
              kind: "takeover" | "answer" | "approve" | null;
              question: string | null;
              asked_at: string | null;
              /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              /** A takeover: who holds the browser (`live link`, or an API key). */
              by: string | null;
              /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
              live_url: string | null;
            } | null;
            /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
            live_url: string | null;
            /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
            files: {
              /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
              name: string;
              /** Bytes. */
              size: number;
              /** SHA-256 of its bytes, lower-case hex. */
              sha256: string;
              /** By its name's extension; application/octet-stream when unknown. */
              content_type: string;
              /** Signed download link, usable without an API key until expires_at; served as an attachment. */
              url: string;
              /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
              expires_at: string;
            }[];
            /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
            mode: "agent" | "replay" | "replay_then_agent";
            /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
            sandbox: {
              /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
              label: string | null;
              /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
              host: string | null;
            };
            /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
            action_space: "dom" | "computer";
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "run.failed": {
    /** The run failed: its final envelope. Sent to the run's `callback_url`, signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "run.failed";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            task_id: string;
            object: "run";
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            result: Record<string, unknown> | null;
            confidence: "high" | "medium" | "low" | null;
            evidence: {
              screenshot_url: string | null;
              matched_text: string | null;
              checked_at: string;
              /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
              recording_url: string | null;
              /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
              trace_url: string | null;
            } | null;
            failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
            /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
            failure_code: "budget_exceeded" | null;
            failure_detail: string | null;
            warnings: string[];
            usage: {
              duration_ms: number | null;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
            max_cost_usd: number | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            job_id: string | null;
            project_id: string;
            name: string | null;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            attempt: number;
            progress: {
              steps: number;
              last_action: string | null;
            };
            /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
            waiting_for: {
              /** The wait (`wp_` prefix). */
              waitpoint_id: string;
              on: "person" | "takeover" | "email";
              /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
              timer: "runs" | "stopped";
              since: string;
              /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
              expires_at: string | null;
              /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
              request_id: string | null;
              /** A person's wait: what the agent asked for. */
              kind: "takeover" | "answer" | "approve" | null;
              question: string | null;
              asked_at: string | null;
              /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              /** A takeover: who holds the browser (`live link`, or an API key). */
              by: string | null;
              /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
              live_url: string | null;
            } | null;
            /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
            live_url: string | null;
            /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
            files: {
              /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
              name: string;
              /** Bytes. */
              size: number;
              /** SHA-256 of its bytes, lower-case hex. */
              sha256: string;
              /** By its name's extension; application/octet-stream when unknown. */
              content_type: string;
              /** Signed download link, usable without an API key until expires_at; served as an attachment. */
              url: string;
              /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
              expires_at: string;
            }[];
            /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
            mode: "agent" | "replay" | "replay_then_agent";
            /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
            sandbox: {
              /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
              label: string | null;
              /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
              host: string | null;
            };
            /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
            action_space: "dom" | "computer";
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "run.cancelled": {
    /** The run was cancelled: its final envelope. Sent to the run's `callback_url`, signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "run.cancelled";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            task_id: string;
            object: "run";
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            result: Record<string, unknown> | null;
            confidence: "high" | "medium" | "low" | null;
            evidence: {
              screenshot_url: string | null;
              matched_text: string | null;
              checked_at: string;
              /** Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings). */
              recording_url: string | null;
              /** Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded. */
              trace_url: string | null;
            } | null;
            failure_reason: "captcha" | "auth_required" | "site_down" | "timeout" | "ambiguous" | "not_found" | null;
            /** A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason. */
            failure_code: "budget_exceeded" | null;
            failure_detail: string | null;
            warnings: string[];
            usage: {
              duration_ms: number | null;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            /** The most the run may cost in USD (its own, else its job's, else its API key's default); null: no limit of its own. */
            max_cost_usd: number | null;
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
            job_id: string | null;
            project_id: string;
            name: string | null;
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            attempt: number;
            progress: {
              steps: number;
              last_action: string | null;
            };
            /** What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser (`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing. */
            waiting_for: {
              /** The wait (`wp_` prefix). */
              waitpoint_id: string;
              on: "person" | "takeover" | "email";
              /** Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s). */
              timer: "runs" | "stopped";
              since: string;
              /** When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer. */
              expires_at: string | null;
              /** A person's wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only. */
              request_id: string | null;
              /** A person's wait: what the agent asked for. */
              kind: "takeover" | "answer" | "approve" | null;
              question: string | null;
              asked_at: string | null;
              /** A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered. */
              asked_again_of: string | null;
              /** A takeover: who holds the browser (`live link`, or an API key). */
              by: string | null;
              /** The run's live view, where a person can see the browser and take over; null when none can be offered. */
              live_url: string | null;
            } | null;
            /** While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise. */
            live_url: string | null;
            /** The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none. */
            files: {
              /** The sanitised, unique name it is served and saved under (docs/api.md, Run files). */
              name: string;
              /** Bytes. */
              size: number;
              /** SHA-256 of its bytes, lower-case hex. */
              sha256: string;
              /** By its name's extension; application/octet-stream when unknown. */
              content_type: string;
              /** Signed download link, usable without an API key until expires_at; served as an attachment. */
              url: string;
              /** When url stops working: 7 days from when it was made, or when retention removes the file if sooner. */
              expires_at: string;
            }[];
            /** How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay). */
            mode: "agent" | "replay" | "replay_then_agent";
            /** Where the run runs (issue 26; docs/api.md, Sandbox hosts). */
            sandbox: {
              /** The sandbox host label the run asked for (its own, else its job's); null: any host. */
              label: string | null;
              /** The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts. */
              host: string | null;
            };
            /** How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces. */
            action_space: "dom" | "computer";
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "eval.completed": {
    /** Every case of an eval has an outcome: the eval as `GET /v1/jobs/{id}/evals` lists it (its totals; `GET /v1/evals/{id}` has its cases). Sent to the organisation's webhook endpoint (`errand webhooks endpoint set`), signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "eval.completed";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            id: string;
            object: "eval";
            job_id: string;
            status: "queued" | "running" | "completed" | "cancelled";
            replay: "auto" | "off";
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            /** The prompt its runs use instead of the job's; null: the job's. */
            prompt: string | null;
            settings: Record<string, unknown>;
            baseline_id: string | null;
            max_parallel: number;
            totals: {
              cases: number;
              passed: number;
              failed: number;
              errors: number;
              skipped: number;
              pending: number;
              running: number;
              /** passed / cases, from 0 to 1 (4 decimals). */
              pass_rate: number;
              /** The cases' runs' durations, added up. */
              duration_ms: number;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "eval.cancelled": {
    /** An eval was cancelled: the eval as `GET /v1/jobs/{id}/evals` lists it. Sent to the organisation's webhook endpoint (`errand webhooks endpoint set`), signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "eval.cancelled";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            id: string;
            object: "eval";
            job_id: string;
            status: "queued" | "running" | "completed" | "cancelled";
            replay: "auto" | "off";
            /** One of haiku, sonnet, opus; default sonnet. */
            model: "haiku" | "sonnet" | "opus";
            /** The prompt its runs use instead of the job's; null: the job's. */
            prompt: string | null;
            settings: Record<string, unknown>;
            baseline_id: string | null;
            max_parallel: number;
            totals: {
              cases: number;
              passed: number;
              failed: number;
              errors: number;
              skipped: number;
              pending: number;
              running: number;
              /** passed / cases, from 0 to 1 (4 decimals). */
              pass_rate: number;
              /** The cases' runs' durations, added up. */
              duration_ms: number;
              input_tokens: number;
              output_tokens: number;
              cost_usd: number;
            };
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "email.received": {
    /** Mail arrived at the identity, an inbox or a run's address: the message as `GET /v1/emails/received/{id}` answers it, with the `metadata` of the send it answers; the event log leaves out `text` and `html`. Sent to the mailbox's `callback_url`, else the identity's (none for mail to a run's address), signed with the identity's `webhook_secret`. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "email.received";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            message_id: string;
            in_reply_to: string | null;
            correlation_token: string | null;
            from: string;
            to: string[];
            subject: string;
            text: string;
            html: string | null;
            reply_text: string;
            received_at: string;
            metadata: Record<string, unknown> | null;
            object?: "received_email";
            kind?: "reply" | "message" | "bounce" | "complaint" | "run";
            inbox_id?: string | null;
            run_id?: string | null;
            from_name?: string | null;
            message_id_header?: string | null;
            in_reply_to_header?: string | null;
            auth?: {
              spf: string;
              dkim: string;
              dmarc: string;
              spf_domain?: string | null;
              dkim_domains?: string[];
              from_domain?: string | null;
              /** A passing DKIM signature's domain aligns with the From address's domain (DMARC's rule: the same organisational domain, or the same domain where its DMARC record asks for strict alignment). */
              dkim_aligned?: boolean;
              /** SPF passed for a MAIL FROM domain that aligns with the From address's domain, by the same rule. */
              spf_aligned?: boolean;
            };
            attachments?: {
              id: string;
              filename: string | null;
              content_type: string;
              size: number;
              /** Signed link, valid 7 days; needs no API key. */
              url: string;
            }[];
            truncated?: boolean;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "email.bounced": {
    /** A recipient of a send bounced for good and is suppressed: `{message_id, correlation_token, recipient, status, diagnostic, source, suppressed, bounced_at, metadata}`. Sent to the mailbox's `callback_url`, else the identity's (none for mail to a run's address), signed with the identity's `webhook_secret`. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "email.bounced";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            message_id: string;
            correlation_token: string | null;
            recipient: string;
            /** The enhanced status code (RFC 3463), such as 5.1.1. */
            status: string | null;
            diagnostic: string | null;
            /** A delivery-status report that came back, or the relay refusing the recipient. */
            source: "report" | "relay";
            suppressed: boolean;
            bounced_at: string;
            /** The send's `metadata`, byte for byte as it was given. */
            metadata: Record<string, unknown> | null;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "email.complained": {
    /** A recipient complained about a send (a feedback report): `{message_id, correlation_token, recipient, feedback_type, user_agent, suppressed, complained_at, metadata}`. Sent to the mailbox's `callback_url`, else the identity's (none for mail to a run's address), signed with the identity's `webhook_secret`. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "email.complained";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            message_id: string;
            correlation_token: string | null;
            /** Null when the report named none of the send's recipients. */
            recipient: string | null;
            feedback_type: string;
            user_agent: string | null;
            suppressed: boolean;
            complained_at: string;
            /** The send's `metadata`, byte for byte as it was given. */
            metadata: Record<string, unknown> | null;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "connection.authenticated": {
    /** A connection became authenticated, or a connect flow finished: the connection record. Sent to the organisation's webhook endpoint (`errand webhooks endpoint set`), signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "connection.authenticated";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            id: string;
            object: "connection";
            name: string;
            type: "token" | "mcp" | "oauth" | "totp" | "proxy";
            /** The project whose runs use it; null for every run of the organisation. */
            project_id: string | null;
            is_enabled: boolean;
            /** Whether a secret is stored. The secret itself is never returned. */
            has_secret: boolean;
            /** token and oauth: the environment variable runs get the secret in. */
            env_var_name: string | null;
            /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
            url: string | null;
            transport: "http" | "sse" | null;
            /** mcp: request headers as given, with ${SECRET} unexpanded. */
            headers: Record<string, string> | null;
            /** oauth: the configured provider. */
            provider: string | null;
            auth_status: "authenticated" | "pending" | "failed" | "expired";
            /** Why the status is what it is, in words. */
            auth_detail: string | null;
            auth_checked_at: string | null;
            /** oauth: when the current access token expires (it is refreshed before). */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "connection.expired": {
    /** The provider refused to refresh a connection's token (connect again): the connection record. Sent to the organisation's webhook endpoint (`errand webhooks endpoint set`), signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "connection.expired";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            id: string;
            object: "connection";
            name: string;
            type: "token" | "mcp" | "oauth" | "totp" | "proxy";
            /** The project whose runs use it; null for every run of the organisation. */
            project_id: string | null;
            is_enabled: boolean;
            /** Whether a secret is stored. The secret itself is never returned. */
            has_secret: boolean;
            /** token and oauth: the environment variable runs get the secret in. */
            env_var_name: string | null;
            /** mcp: the server. proxy: scheme://host:port, never with its credentials. */
            url: string | null;
            transport: "http" | "sse" | null;
            /** mcp: request headers as given, with ${SECRET} unexpanded. */
            headers: Record<string, string> | null;
            /** oauth: the configured provider. */
            provider: string | null;
            auth_status: "authenticated" | "pending" | "failed" | "expired";
            /** Why the status is what it is, in words. */
            auth_detail: string | null;
            auth_checked_at: string | null;
            /** oauth: when the current access token expires (it is refreshed before). */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
  "profile.signed_out": {
    /** A profile's check found it signed out (a run's, before its agent started, or `errand profiles check`): the profile record, its health_detail saying what the page showed. A run then signs in again, or asks a person. Sent to the organisation's webhook endpoint (`errand webhooks endpoint set`), signed with the organisation's secret (`errand webhooks secret`). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** The same for every attempt of one delivery: receivers deduplicate on it. */
          "webhook-id": string;
          /** Unix seconds of the attempt. */
          "webhook-timestamp": string;
          /** Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now. */
          "webhook-signature": string;
        };
        path?: never;
      };
      requestBody: {
        "application/json": {
          event: "profile.signed_out";
          /** False for an event of test mode (docs/api.md, Test mode). */
          livemode: boolean;
          data: {
            id: string;
            object: "profile";
            name: string;
            /** Whether a state is saved. The state itself (cookies, storage) is never answered. */
            has_state: boolean;
            /** The sites the state holds: the origins of its storage and the domains of its cookies. */
            origins: string[];
            /** The size of the saved state (profiles.max_state_kb bounds it). */
            size_bytes: number;
            saved_at: string | null;
            /** The run whose browser the state was saved from (by the run, or from its live view); null for an import. */
            saved_by_run_id: string | null;
            /** run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file. */
            saved_via: "run" | "live_view" | "import" | null;
            last_used_at: string | null;
            last_used_by_run_id: string | null;
            /** How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked). */
            check: {
              url: string;
              text: string | null;
              role: string | null;
              name: string | null;
            } | null;
            /** What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased). */
            health: "unknown" | "signed_in" | "signed_out" | "expired";
            /** What the last check saw, in words. */
            health_detail: string | null;
            checked_at: string | null;
            /** When its state is erased; null: never. */
            expires_at: string | null;
            created_at: string;
            updated_at: string;
          };
        };
      };
      responses: {
        /** Received. Anything else is retried on the retry schedule; 410 stops the retries. */
        "2XX": never;
      };
    };
  };
}

export interface components {
  schemas: {
    ErrorResponse: {
      error: {
        type: "invalid_request_error" | "authentication_error" | "quota_error" | "not_found_error" | "conflict_error" | "rate_limit_error" | "api_error";
        code: string;
        message: string;
        param?: string;
      };
      request_id: string;
    };
  };
}
