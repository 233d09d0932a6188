// Generated from openapi.yaml by stack/generateTypes.ts (npm run generate). Do not edit.

export type paths = {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and dependencies (no key needed); 503 when the database or Temporal is down. */
        get: operations["healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which user and organization the presented key resolves to. */
        get: operations["authHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling user and the organizations it belongs to. */
        get: operations["usersMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles/project": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project roles and their permissions (resource:action). */
        get: operations["listProjectRoles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects the caller can read. */
        get: operations["listProjects"];
        put?: never;
        /** Creates a project in the organization; the creator becomes its Project Admin. */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get: operations["getProject"];
        put?: never;
        post?: never;
        /**
         * Deletes a project and everything in it (Project Admin).
         * @description 409 while a measurement runs on a channel of one of its cyclers (as for deleting that site, cycler or channel).
         */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        /** Updates a project's name and description. */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/projects/{project_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Gives an organization member a role in the project (Project Admin). */
        post: operations["addProjectMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                user_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["removeProjectMember"];
        options?: never;
        head?: never;
        patch: operations["changeProjectMember"];
        trace?: never;
    };
    "/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sites of the organization. */
        get: operations["listSites"];
        put?: never;
        /** Creates a site of the organization (organization owners, or members with cycler:create in a project). */
        post: operations["createSite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sites/{site_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site_id: string;
            };
            cookie?: never;
        };
        /** A site with created_by_email and the ids of its cyclers the caller can read. */
        get: operations["getSite"];
        put?: never;
        post?: never;
        /** Deletes a site with its cyclers and channels; 409 while a measurement runs on one of its channels. */
        delete: operations["deleteSite"];
        options?: never;
        head?: never;
        /** Updates the provided fields of a site. */
        patch: operations["updateSite"];
        trace?: never;
    };
    "/sites/{site_id}/cyclers": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site_id: string;
            };
            cookie?: never;
        };
        /** Cyclers at the site, with the filters of GET /cyclers. */
        get: operations["listSiteCyclers"];
        put?: never;
        /** Creates a cycler at the site, owned by project_id (cycler:create there). */
        post: operations["createCycler"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cyclers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cyclers of the projects the caller can read, with q, column filters and sorting. */
        get: operations["listCyclers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cyclers/{cycler_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        /** A cycler. */
        get: operations["getCycler"];
        put?: never;
        post?: never;
        /** Deletes a cycler with its channels; 409 while a measurement runs on one of them. */
        delete: operations["deleteCycler"];
        options?: never;
        head?: never;
        /** Updates the provided fields; moving to another project takes the channels along (409 while a measurement runs). */
        patch: operations["updateCycler"];
        trace?: never;
    };
    "/cyclers/{cycler_id}/service_events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        /** Service events of the cycler, newest first. */
        get: operations["listCyclerServiceEvents"];
        put?: never;
        /** Opens a service event and takes every in-service channel of the cycler out of commission with it; 409 while another is open or a measurement runs on the cycler. */
        post: operations["openCyclerServiceEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cyclers/{cycler_id}/service_events/complete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Completes the open service event and returns the channels it took out; a calibration sets last_calibrated_at and calibration_due_at. */
        post: operations["completeCyclerServiceEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cyclers/{cycler_id}/channels": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        /** Channels of the cycler. */
        get: operations["listCyclerChannels"];
        put?: never;
        /** Creates a channel under the cycler; project and organization come from the cycler. out_of_commission is refused (400). */
        post: operations["createChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Channels of the projects the caller can read (cycler_id narrows to one cycler). */
        get: operations["listChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/channels/{channel_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channel_id: string;
            };
            cookie?: never;
        };
        /** A channel. */
        get: operations["getChannel"];
        put?: never;
        post?: never;
        /** Deletes a channel; 409 while a measurement runs on it. */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        /** Updates the provided fields; changing out_of_commission records an incident and is refused (409) while a measurement runs. */
        patch: operations["updateChannel"];
        trace?: never;
    };
    "/channels/{channel_id}/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channel_id: string;
            };
            cookie?: never;
        };
        /** Outages of the channel (out of commission and, once back, resolved), most recent first. */
        get: operations["listChannelIncidents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_specifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cell specifications of the projects the caller can read. */
        get: operations["listCellSpecifications"];
        put?: never;
        /** Creates a cell specification (names unique per project). */
        post: operations["createCellSpecification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_specifications/{spec_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        /** A cell specification. */
        get: operations["getCellSpecification"];
        put?: never;
        post?: never;
        /** Deletes the specification with its instances and their measurements. */
        delete: operations["deleteCellSpecification"];
        options?: never;
        head?: never;
        /** Updates the provided fields. */
        patch: operations["updateCellSpecification"];
        trace?: never;
    };
    "/cell_specifications/{spec_id}/cell_batches": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        /** Batches of the specification, newest first. */
        get: operations["listCellBatches"];
        put?: never;
        /** Creates a cell batch (manufacturing lot); names unique per specification, case-insensitively (409 with existing_id). */
        post: operations["createCellBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_batches/{batch_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        get: operations["getCellBatch"];
        put?: never;
        post?: never;
        /** Deletes the lot; its instances are kept, without a batch. */
        delete: operations["deleteCellBatch"];
        options?: never;
        head?: never;
        /** Changes the given fields; a rename holds for every member instance (they refer to it by id). */
        patch: operations["updateCellBatch"];
        trace?: never;
    };
    "/cell_specifications/{spec_id}/cell_instances": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        /** Instances of the specification. */
        get: operations["listCellInstances"];
        put?: never;
        /** Creates a cell instance (names unique per specification). */
        post: operations["createCellInstance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_instances/{instance_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        /** A cell instance. */
        get: operations["getCellInstance"];
        put?: never;
        post?: never;
        /** Deletes the instance with its measurements. */
        delete: operations["deleteCellInstance"];
        options?: never;
        head?: never;
        /** Updates the provided fields. */
        patch: operations["updateCellInstance"];
        trace?: never;
    };
    "/cell_instances/{instance_id}/cell_measurements": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        /** Measurement records of the cell instance, latest start first. */
        get: operations["listCellMeasurements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_instances/{instance_id}/cell_measurements/create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Creates a properties measurement (values with units); time series and files use initiate-upload. */
        post: operations["createPropertiesMeasurement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's measurement records across its cells, latest start first (default limit 25); q matches name, notes, protocol name and tags. */
        get: operations["listProjectMeasurements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The distinct tags of a project's measurements, with how many carry each, most used first. */
        get: operations["listMeasurementTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/tags/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Adds and removes tags on up to 1000 measurements in one change (a tag in both is removed); 404 for a measurement the caller cannot see, 403 without update permission, and then nothing changes. */
        post: operations["bulkMeasurementTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        /** A measurement record. */
        get: operations["getCellMeasurement"];
        put?: never;
        post?: never;
        /** Deletes a measurement record. */
        delete: operations["deleteCellMeasurement"];
        options?: never;
        head?: never;
        /** Updates the provided fields; channel_id links (same project, in commission, no overlapping unfinished measurement, a running one not on a cycler in service) or null detaches. */
        patch: operations["updateCellMeasurement"];
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/watch": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Watches the measurement (idempotent). */
        post: operations["watchCellMeasurement"];
        /** Stops watching the measurement (idempotent). */
        delete: operations["unwatchCellMeasurement"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/lab/status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** The whole lab tree of the project with occupancy derived at read time, in one call (or its summary, or a page of its cyclers). */
        get: operations["labStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/lab/watched": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** Ids of the measurements of the project that the caller watches. */
        get: operations["labWatched"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prefix full-text and substring search across the organization's entities the caller can read, ranked.
         * @description Matches when the name contains `q` (case-insensitive) or every word of `q` is a prefix of a word of the
         *     name or details. Ranked: exact name, then name prefix, then trigram similarity and full-text rank.
         *     `entity_type` values: project, study, simulation, model, parameterized_model, optimization,
         *     optimization_template, experiment_template, pipeline, cell_specification, material, site, cycler,
         *     channel, cell_instance, cell_measurement, raw_data (confirmed raw data files; details: file name, source,
         *     metadata), analysis (parent_id: its measurement; details: analysis type, notes, metadata). Sites belong to
         *     the organization (project_id null) and are visible to every member; everything else only in projects the
         *     caller can read.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_instances/{cell_instance_id}/cell_measurements/initiate-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Signed upload targets for a new time-series or file measurement (no record yet).
         * @description Pre-allocates the measurement id. A time series always offers `time_series.parquet` (required,
         *     Parquet or CSV with the canonical columns) and `steps.parquet` (optional); a file measurement one
         *     target per filename, in order. PUT the bytes to `signed_url` (no auth header), or use `multipart`
         *     when present, then call confirm-upload. Targets expire after SIGNED_URL_TTL_SECONDS (1 h).
         */
        post: operations["initiateMeasurementUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/confirm-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Creates the measurement record and starts background processing.
         * @description Answers at once with `processing_status: pending`; processing moves it to `running`, then
         *     `ready` or `failed` (see GET .../validation). Confirming again answers the record (200).
         *     409 when nothing was uploaded; 413 when a signed PUT carried more than its target allows.
         */
        post: operations["confirmMeasurementUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/initiate-extend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A signed target for a delta time series (`time_series_extend.parquet`) appended to the measurement.
         * @description The measurement must be a ready time series without `end_time`; one extend at a time (409 while
         *     another is initiated and unexpired, or processing). The 409 for an initiated, unexpired extend
         *     carries its target again in `detail.uploads` (freshly signed, same expiry), so a client that
         *     lost the first answer can upload and confirm that extend.
         */
        post: operations["initiateMeasurementExtend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/confirm-extend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Starts appending the uploaded delta; the stored series switches to the new version atomically.
         * @description Answers at once with `processing_status: pending`. A refused extension leaves the stored series
         *     unchanged, `processing_status: ready` and `processing_error` set; the next extend clears it.
         */
        post: operations["confirmMeasurementExtend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/validation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The processing state and every validation issue of the last processing (upload or extend). */
        get: operations["getMeasurementValidation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/time_series/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The canonical time series as Parquet (redirect to a signed GET valid 5 minutes). */
        get: operations["downloadMeasurementTimeSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/steps/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The steps summary as Parquet (redirect to a signed GET valid 5 minutes). */
        get: operations["downloadMeasurementSteps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/time_series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Columns of the series as JSON, downsampled for plotting (LTTB on voltage over time; first and last rows kept).
         * @description Every returned row is a stored row. For a series of 100,000 rows or more, requests of fewer than 20,000 points are answered from the series' plot overview (the 20,000 rows LTTB keeps, stored by processing), downsampled again with LTTB: milliseconds instead of the seconds a full read of millions of rows takes.
         */
        get: operations["getMeasurementTimeSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/steps_and_cycles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The steps and cycles summaries, column by column. */
        get: operations["getMeasurementStepsAndCycles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/cycles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The cycles summary (per Cycle count), column by column, under cycles (as the Python client reads it). */
        get: operations["getMeasurementCycles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The filenames of a file measurement, in upload order. */
        get: operations["listMeasurementFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/files/{filename}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One uploaded file, byte for byte (redirect to a signed GET valid 5 minutes). */
        get: operations["downloadMeasurementFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's models. */
        get: operations["listModels"];
        put?: never;
        /** Stores a built-in PyBaMM model configuration after the simulation worker has built it. */
        post: operations["createModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/models/upload-custom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Uploads a custom model (a PyBaMM model specification as JSON); it is built by the worker before it is stored. */
        post: operations["uploadCustomModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/models/{model_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_id: string;
            };
            cookie?: never;
        };
        get: operations["getModel"];
        put?: never;
        post?: never;
        /** Deletes a model no parameterized model or model builder uses (409 otherwise). */
        delete: operations["deleteModel"];
        options?: never;
        head?: never;
        /** Renames or re-describes a model (its creator or an organization owner). */
        patch: operations["updateModel"];
        trace?: never;
    };
    "/models/{model_id}/custom-variables": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adds a custom variable to a model (its creator or an organization owner); answers the model.
         * @description The Python worker builds the model with the variable first: an expression naming no variable of the model, or not evaluable, is a 422 at expression; a name the model already has (a variable of its own or a custom one) is a 422 at name. Later simulations of the model (and of its parameterized models) can then ask for it.
         */
        post: operations["addModelCustomVariable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/model_builders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Model builders of the projects the caller reads, newest first. */
        get: operations["listModelBuilders"];
        put?: never;
        /**
         * A recipe (entry and calculation elements) that turns a cell specification into a model's parameters.
         * @description config is an ionworks-schema Pipeline's to_config(): {elements: {name: element}}. An entry reads the cell specification through mapping (parameter name → dotted path, e.g. cathode.properties.thickness), each value converted to the unit in its parameter's name; it has no cell_spec_id. Calculations are those pipelines run. Fits and validations are a 422 at their element_type. Names are unique per model in a project (409 with existing_id).
         */
        post: operations["createModelBuilder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/model_builders/dry_run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Runs a recipe on a cell specification without saving anything. */
        post: operations["dryRunModelBuilder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/model_builders/preview_mapping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What a mapping reads from a cell specification, before and after unit conversion. */
        post: operations["previewModelBuilderMapping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/model_builders/calculations/producing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calculations a recipe can add, options filled in, that produce a parameter. */
        get: operations["calculationsProducing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/model_builders/{model_builder_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        get: operations["getModelBuilder"];
        put?: never;
        post?: never;
        /** Deletes a builder; the parameterized models it saved are kept. */
        delete: operations["deleteModelBuilder"];
        options?: never;
        head?: never;
        /** Changes one of the organization's own builders; fields left out are kept. */
        patch: operations["updateModelBuilder"];
        trace?: never;
    };
    "/model_builders/{model_builder_id}/check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Everything a cell specification lacks for this builder, each issue naming the path and the parameter. */
        post: operations["checkModelBuilder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/model_builders/{model_builder_id}/build": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Builds the model's parameters for a cell specification; with save, a parameterized model on it.
         * @description save is refused (422 at save, with the missing parameters) while the specification lacks anything the recipe reads; it needs a name. set_as_default makes the saved model the specification's default.
         */
        post: operations["buildModelBuilder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_specifications/{spec_id}/resolved": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        /** The cell specification as a model builder's mapping paths read it. */
        get: operations["getResolvedCellSpecification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_specifications/{spec_id}/builder_readiness": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        /** Which builders of the specification's project (optionally for one model) it is ready for. */
        get: operations["getBuilderReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/parameterized_models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listParameterizedModels"];
        put?: never;
        /** A model with parameter values, in a project; unknown parameter names are refused. */
        post: operations["createParameterizedModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cells/{cell_spec_id}/parameterized_models": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cell_spec_id: string;
            };
            cookie?: never;
        };
        /** Parameterized models of the cell specification. */
        get: operations["listCellParameterizedModels"];
        put?: never;
        /** A parameterized model of a cell specification (in the specification's project). */
        post: operations["createCellParameterizedModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/parameterized_models/{parameterized_model_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        get: operations["getParameterizedModel"];
        put?: never;
        post?: never;
        delete: operations["deleteParameterizedModel"];
        options?: never;
        head?: never;
        patch: operations["updateParameterizedModel"];
        trace?: never;
    };
    "/cells/{cell_spec_id}/parameterized_models/{parameterized_model_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cell_spec_id: string;
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** DELETE /parameterized_models/{id}, under its cell specification; 404 when it is not that specification's. */
        delete: operations["deleteCellParameterizedModel"];
        options?: never;
        head?: never;
        /** PATCH /parameterized_models/{id}, under the cell specification it belongs to (as the Python client calls it); 404 when it is not that specification's. */
        patch: operations["updateCellParameterizedModel"];
        trace?: never;
    };
    "/parameterized_models/{parameterized_model_id}/parameter-values": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        /** The parameter values the parameterized model sets (over its model's base parameter set), name → value. */
        get: operations["parameterizedModelParameterValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/parameterized_models/{parameterized_model_id}/variable-names": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        /** Variables of the model usable as extra_variables (a list, as the Python client reads it); with detail=true, also its spatial variables and parameter names. */
        get: operations["parameterizedModelVariableNames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discovery/pybamm_models/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether the engine builds a model with these options: {valid: true}, or {valid: false, error, error_type}.
         * @description The model is built by the Python worker the way a simulation builds it. error_type is UnsupportedModel for a model the engine does not build (see GET /discovery/pybamm_models), ModelError when PyBaMM refuses the options. Nothing is stored; 503 when the worker does not answer.
         */
        post: operations["validatePybammModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discovery/ionworks_models/serialize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A model type the engine builds, with options, as pybamm's Serialise document.
         * @description The Python client's model.serialize / model.download: the symbolic model (rhs, algebraic, variables, events, initial conditions) as the Python worker builds it for a simulation, serialised by pybamm and compressed ({compressed, data}: zlib, then base64), which pybamm.Serialise.load_custom_model reads as it is. name is one of the types of GET /discovery/pybamm_models (Cellar serves no proprietary ionworks models); 422 for another name or options PyBaMM refuses. An electrochemical model takes the worker a few seconds; 503 when the worker does not answer.
         */
        post: operations["serializeIonworksModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discovery/pybamm_models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Built-in PyBaMM model types usable in a model configuration.
         * @description A page of model types, and the same as the Python client reads them: pybamm_models (module → class names), ionworks_models, options and pybamm_version.
         */
        get: operations["discoveryPybammModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discovery/chemistries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Chemistries of the quick model, with their base parameters (open-circuit voltage table, resistances, limits). */
        get: operations["discoveryChemistries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discovery/schemas/protocol": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Schema (2020-12) of the canonical protocol form (UCP). */
        get: operations["protocolSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discovery/schemas/data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Schema (2020-12) of the cell data hierarchy (specification, batch, instance, measurement, time series), from this document's own schemas. */
        get: operations["dataSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discovery/capabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this service offers (domain context, schema and OpenAPI locations, authentication), as the Python client reads it. */
        get: operations["discoveryCapabilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/protocols/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Checks a protocol (UCP YAML/JSON or PyBaMM experiment lines); the error names the step and field.
         * @description PyBaMM lines are read as PyBaMM reads them, with one exception: a rest that ends on a voltage
         *     (`Rest for 1 hour or until 4.0 V`) is refused, because a rest may relax up or down to it and the
         *     line does not say which; end it on a duration. A `(N second period)` becomes
         *     `global.resolution.time` (the smallest one given).
         */
        post: operations["validateProtocol"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/protocols/input_references": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Names of the input['...'] placeholders of a protocol. */
        post: operations["protocolInputReferences"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/protocols/parse-to-template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stores a protocol as an experiment template; the same body always gives the same template. */
        post: operations["parseProtocolToTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/experiment_templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Saved protocols; the heavy columns only when named in include. */
        get: operations["listExperimentTemplates"];
        put?: never;
        /** Saves a protocol (the Python client's protocol.create). The same content in a project is one template: an identical one is answered as it is (200), or 409 with existing_id when force_create is true; a new one is 201. */
        post: operations["createExperimentTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/experiment_templates/{template_id}/human_readable": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        /** The protocol in its canonical form as YAML text, headed by its name. */
        get: operations["experimentTemplateHumanReadable"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/experiment_templates/{template_id}/source_protocol": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        /** The protocol text the template was made from. */
        get: operations["experimentTemplateSourceProtocol"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/experiment_templates/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        get: operations["getExperimentTemplate"];
        put?: never;
        post?: never;
        delete: operations["deleteExperimentTemplate"];
        options?: never;
        head?: never;
        patch: operations["updateExperimentTemplate"];
        trace?: never;
    };
    "/simulations/protocol/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One simulation and job per design point; answers at once, the simulations run in the background. */
        post: operations["submitProtocolBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/with-template/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Simulations of an experiment template, one per parameter set and design point. */
        post: operations["submitTemplateBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of simulations; the items are also under simulations, where the Python client reads them. */
        get: operations["listSimulations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/statuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The job status of up to 1000 simulations in one request; ids unknown or not readable are left out. */
        post: operations["simulationStatuses"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Submissions (one per batch request), newest first, each with its jobs counted by status. */
        get: operations["listSimulationBatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/batches/{batch_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        /** One submission's progress, its jobs counted by status (a simulation's batch_id names it). */
        get: operations["getSimulationBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/batches/{batch_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancels what is left of a batch in one request.
         * @description Answers at once; the batch's workflow ends every job not yet ended (pending or running) within a second or two, and its chunks stop solving at their next step (the answer may still count jobs pending or running). Completed and failed jobs keep their results. A batch with nothing left, or canceled again, answers 200 as it stands.
         */
        post: operations["cancelSimulationBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/{simulation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                simulation_id: string;
            };
            cookie?: never;
        };
        get: operations["getSimulation"];
        put?: never;
        post?: never;
        /** Deletes the simulation with its job; a run still going is stopped, and its stored results are purged unless another simulation reuses them. */
        delete: operations["deleteSimulation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/{simulation_id}/time_series/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                simulation_id: string;
            };
            cookie?: never;
        };
        /** The time series as Parquet (404 until stored). */
        get: operations["downloadSimulationTimeSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simulations/{simulation_id}/steps/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                simulation_id: string;
            };
            cookie?: never;
        };
        /** The per-step summary as Parquet (404 until stored). */
        get: operations["downloadSimulationSteps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Jobs the caller can read, as a plain array (also served at /jobs/). */
        get: operations["listJobs"];
        put?: never;
        /** Gone (410), as on the hosted service: jobs are started by the operations that own them (the client's deprecated job.create). */
        post: operations["createJobGone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        /** A job; while running it carries progress (protocol steps done). */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancels a pending job at once, or a running one by cancelling its workflow (the job then ends canceled).
         * @description Cancelling a canceled job again answers 200 with it (a retried request changes nothing); a job that completed or failed answers 409.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{job_id}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        /**
         * A fit's or validation's metadata: its plot manifest, validation statistics and optimizer trace.
         * @description validation_plot_config.objectives names each objective with its plot count and type (what the Python client assembles an overlay from, through GET /pipelines/datafits/{job_id}/plot_data); validation_results holds the statistics per objective; intermediate_results is a fit's optimizer trace, oldest first: the start point, then each iteration's {iteration, cost, best_cost, inputs (each parameter in [0, 1] across its bounds), inputs_unscaled}, thinned evenly to at most 200 entries (empty for a validation). 404 for a job that stored no series (entries, calculations, a fit not yet completed, simulations).
         */
        get: operations["getJobMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{job_id}/series/channels": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        /**
         * The model-vs-data series a fit or validation job stored: {objective: {source: [channel, ...]}}.
         * @description source is optimal (the fitted or validated values) or baseline (a fit's start point). The channels are Time [s], "<target> (data)" and "<target> (model)". Empty until the job has completed; a job that is not a pipeline element's is 404.
         */
        get: operations["getJobSeriesChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/jobs/{job_id}/series": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        /**
         * One objective's model-vs-data series, {channel: [values]} (all of equal length), windowed on x and downsampled.
         * @description Rows with x_column within [x_min, x_max]; with max_points, at most that many rows chosen by Largest-Triangle-Three-Buckets on x and the first other channel. A point the model did not reach (it stopped at a model limit first) is null in the model channel. An objective, source or channel the job does not have is 422.
         */
        get: operations["getJobSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/studies": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get: operations["listStudies"];
        put?: never;
        post: operations["createStudy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/studies/{study_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
            };
            cookie?: never;
        };
        get: operations["getStudy"];
        put?: never;
        post?: never;
        delete: operations["deleteStudy"];
        options?: never;
        head?: never;
        patch: operations["updateStudy"];
        trace?: never;
    };
    "/projects/{project_id}/studies/{study_id}/simulations/{simulation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                simulation_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Links a simulation to the study (idempotent). */
        post: operations["linkStudySimulation"];
        /** Removes the link (idempotent). */
        delete: operations["unlinkStudySimulation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/studies/{study_id}/measurements": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
                study_id: string;
            };
            cookie?: never;
        };
        /** Measurement records linked to the study, latest start first (the same filters as a cell instance's list). */
        get: operations["listStudyMeasurements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/studies/{study_id}/measurements/{measurement_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                measurement_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Links a cell measurement to the study (idempotent). */
        post: operations["linkStudyMeasurement"];
        /** Removes the link (idempotent). */
        delete: operations["unlinkStudyMeasurement"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/invites": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Gives someone a project role by e-mail (Project Admins). A person not yet in the organization becomes a member of it, which only its owners may do (403 otherwise); an existing project member keeps their role (already_member). No e-mail is sent. */
        post: operations["inviteProjectMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organizations the caller belongs to, with the caller's role in each (Admin is an owner). */
        get: operations["listOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organizations/{org_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
            };
            cookie?: never;
        };
        /** Members of the key's organization with their role and project roles (owners only). */
        get: operations["listOrganizationMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organizations/{org_id}/users/by-email": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Adds someone by e-mail (owners only): a new user becomes a member at once with role_name; an existing member keeps their role (already_member). No e-mail is sent (invite_sent is false); an administrator issues the member an API key. */
        post: operations["inviteOrganizationMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organizations/{org_id}/users/{user_id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Changes a member's organization role (owners only); 409 if it would leave no owner. */
        patch: operations["setOrganizationMemberRole"];
        trace?: never;
    };
    "/organizations/{org_id}/users/{user_id}/resend-invite": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accepted for the Python client; Cellar sends no e-mail (invite_sent false). */
        post: operations["resendOrganizationInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organizations/{org_id}/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Removes a member (owners only): their project roles in the organization go and their API keys for it are revoked; 409 for the last owner. */
        delete: operations["removeOrganizationMember"];
        options?: never;
        head?: never;
        /** Deactivates or reactivates a member (owners only). A deactivated member keeps their membership, project roles and API keys, but the keys are refused (403) in this organization until reactivated; 409 for the last active owner. */
        patch: operations["setOrganizationMemberActive"];
        trace?: never;
    };
    "/organizations/current/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This calendar month's usage in hours, as the Python client reads it, and the simulations counted against the limit.
         * @description simulation.usage is the simulated battery time of the month's completed simulations, in hours; its limit is null, because the monthly limit counts simulations: count and count_limit (a batch past it is 429 USAGE_LIMIT_EXCEEDED). compute is the workers' time in hours, by job type (simulation, datafit, validation), usage their sum; no compute limit.
         */
        get: operations["organizationUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/studies/{study_id}/simulation_boards": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
            };
            cookie?: never;
        };
        get: operations["listSimulationBoards"];
        put?: never;
        /** Saves a view of the study's simulations (which ones, and the variables and axes to plot). */
        post: operations["createSimulationBoard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/studies/{study_id}/simulation_boards/{board_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                board_id: string;
            };
            cookie?: never;
        };
        get: operations["getSimulationBoard"];
        put?: never;
        post?: never;
        delete: operations["deleteSimulationBoard"];
        options?: never;
        head?: never;
        patch: operations["updateSimulationBoard"];
        trace?: never;
    };
    "/pipelines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pipelines the caller can read, newest first; pages with limit and skip. */
        get: operations["listPipelines"];
        put?: never;
        /** Creates a pipeline and starts it; elements run in the order given, each receiving the parameter values produced before it. */
        post: operations["createPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancels several pipelines in one request.
         * @description In one database transaction every selected pipeline of the caller's organization (from any
         *     state) and each of its non-terminal elements is marked canceled; completed elements keep
         *     their results. The answer comes at once; the Temporal side (signalling each pipeline
         *     workflow, terminating running element workflows) is handed to one background workflow
         *     whose id is derived from the request, so a retried request does not start a second one.
         *     Unknown ids, other organizations' ids and pipelines the caller may not update are
         *     reported and left untouched.
         */
        post: operations["cancelPipelines"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/{pipeline_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        get: operations["getPipeline"];
        put?: never;
        post?: never;
        /** Deletes a pipeline with its elements, jobs and diagnostics; running work is canceled first. */
        delete: operations["deletePipeline"];
        options?: never;
        head?: never;
        /** Renames a pipeline or changes its description. */
        patch: operations["updatePipeline"];
        trace?: never;
    };
    "/pipelines/{pipeline_id}/elements": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        /** The elements in order, each with its job, attempts and outcome. */
        get: operations["listPipelineElements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/{pipeline_id}/result": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        /** The pipeline's result and the result of each completed element (entries and fits report parameter_values). */
        get: operations["getPipelineResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/datafits/{job_id}/plot_data": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        /**
         * One plot of a fit's or validation's objective, downsampled: plot 0 the measured (Data) and model (Fit) curves, plot 1 the model's error.
         * @description Plotly's vocabulary, as the Python client reads it: {type, traces: [{name, x, y}], layout: {xaxis: {title: {text}}, yaxis: {title: {text}}}}. At most max_points points per trace (Largest-Triangle-Three-Buckets), within [x_min, x_max] when given. A plot_index past the last plot is 404 (the client stops there).
         */
        get: operations["getDatafitPlotData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pipelines/{pipeline_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancels one pipeline (as POST /pipelines/cancel does) and answers the updated record. */
        post: operations["cancelPipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simple_pipelines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Simple pipelines the caller can read (default limit 10, newest first). */
        get: operations["listSimplePipelines"];
        put?: never;
        /** Accepts a pipeline with at most one data_fit, array_data_fit or validation element (202, pending). */
        post: operations["createSimplePipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/simple_pipelines/{pipeline_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        get: operations["getSimplePipeline"];
        put?: never;
        post?: never;
        delete: operations["deleteSimplePipeline"];
        options?: never;
        head?: never;
        /** Changes the name or description. */
        patch: operations["updateSimplePipeline"];
        trace?: never;
    };
    "/simple_pipelines/{pipeline_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["cancelSimplePipeline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/optimizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Optimizations the caller can read, newest first, as {optimizations, total}. */
        get: operations["listOptimizations"];
        put?: never;
        /**
         * Starts a parameter estimation (a fit) or a design optimization as a durable workflow; 201, queued.
         * @description Either runs on the pipeline engine as a pipeline of one element, named fit (a data fit) or design (config.type "design": a design optimization, DesignOptimizationConfig), so its id also answers GET /pipelines/{id}; its job_id is that element's job, whose optimizer trace GET /jobs/{job_id}/metadata answers as intermediate_results. A config the engine cannot run is a 422 naming the field under config, and nothing is created.
         */
        post: operations["createOptimization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/optimizations/{optimization_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                optimization_id: string;
            };
            cookie?: never;
        };
        get: operations["getOptimization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Changes the name or description. */
        patch: operations["updateOptimization"];
        trace?: never;
    };
    "/optimizations/{optimization_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                optimization_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stops the fit (a finished optimization stays as it is). */
        post: operations["cancelOptimization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fit-from-measurements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fits a model to a stored cell measurement; accepted as a simple pipeline (202, pending).
         * @description A convenience over POST /simple_pipelines: the request becomes a simple pipeline with one
         *     data_fit element named "fit" whose data is "db:<measurement id>", checked by the same rules,
         *     stored as the same records and run by the same workflow. Follow it with
         *     GET /simple_pipelines/{id} (the Location header) and read the fitted values from
         *     GET /pipelines/{id}/result: element_results.fit.parameter_values (also result.parameter_values).
         *
         *     The measurement must be a time series of the caller's organization whose processing is
         *     ready; the fit reads its "Time [s]", "Current [A]" (unless a protocol drives the model) and
         *     target ("Voltage [V]" by default) columns.
         *
         *     Errors name the field of this request, and nothing is created or started: an unknown
         *     measurement is 422 at ["body", "measurement_ids", 0]; another organization's is 403 and one
         *     still processing is 409, both with detail.loc; a bad parameter is 422 at
         *     ["body", "parameters", <name>, ...].
         */
        post: operations["fitFromMeasurements"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fit-from-file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fits a model to measured data uploaded with the request (multipart); accepted as a simple pipeline (202, pending).
         * @description A convenience over POST /simple_pipelines: the file's columns become the inline data of one
         *     data_fit element named "fit" of a simple pipeline, checked by the same rules, stored as the
         *     same records and run by the same workflow. Follow it with GET /simple_pipelines/{id} (the
         *     Location header) and read the fitted values from GET /pipelines/{id}/result:
         *     element_results.fit.parameter_values (also result.parameter_values).
         *
         *     The structured fields (model, parameters, fixed_parameters, protocol, optimizer) are form
         *     fields holding JSON; the others are plain text. The file is CSV with a header row (comma,
         *     semicolon or tab separated, UTF-8) or Parquet, told apart by content, with the column names
         *     of the measurement data: "Time [s]", "Current [A]" (required unless a protocol drives the
         *     model) and the target ("Voltage [V]" by default). Only those columns are kept; empty and NaN
         *     cells are missing values. Inline data is limited to 1,000 rows: a larger file is refused
         *     (422 at ["body", "file"], ctx.max_rows), not downsampled, so the fit sees exactly the data
         *     given; upload larger data as a cell measurement and use POST /fit-from-measurements.
         *
         *     Errors name the field of this request (["body", "file"] for the file, ["body", "file",
         *     <column>] for a value that is not a number), and nothing is created or started.
         */
        post: operations["fitFromFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/diagnostics/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                event_id: string;
            };
            cookie?: never;
        };
        /** The exception captured for a failure, with its message and full stack trace (project admins, diagnostic:read). */
        get: operations["getDiagnosticEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/planned_measurements": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** The project's planned measurements (future test requests and channel reservations). */
        get: operations["listPlannedMeasurements"];
        put?: never;
        /** Request a test (status requested, with an estimated duration) or book it at once (status scheduled, with a channel and window). */
        post: operations["createPlannedMeasurement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/planned_measurements/auto_schedule_proposal": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Propose, in the given priority order, the earliest window on a suitable in-service channel for each requested plan (nothing is stored). */
        post: operations["proposeAutoSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/planned_measurements/apply_auto_schedule_proposal": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Apply reviewed assignments all or nothing; 409 SCHEDULE_STALE when anything changed since the proposal. */
        post: operations["applyAutoSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/projects/{project_id}/planned_measurements/{planned_measurement_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                planned_measurement_id: string;
            };
            cookie?: never;
        };
        /** One planned measurement. */
        get: operations["getPlannedMeasurement"];
        put?: never;
        post?: never;
        /** Delete a plan (not while in progress). */
        delete: operations["deletePlannedMeasurement"];
        options?: never;
        head?: never;
        /** Change, schedule (status scheduled with channel and window), move, unschedule, start, complete or cancel a plan. */
        patch: operations["updatePlannedMeasurement"];
        trace?: never;
    };
    "/raw_data/initiate-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A signed upload target for an original file (a cycler export) of a project.
         * @description Pre-allocates the record's id. PUT the bytes to `signed_url` (no auth header), or use `multipart`
         *     when present, then call confirm-upload with the same fields and `size_bytes`. The target expires
         *     after SIGNED_URL_TTL_SECONDS (1 h) and accepts at most UPLOAD_MAX_BYTES.
         */
        post: operations["initiateRawDataUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/raw_data/{raw_data_id}/confirm-upload": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Records the uploaded file; name, source and metadata may be restated, project_id and filename must match initiate-upload.
         * @description 409 when nothing was uploaded; 413 (and the object discarded) when it is larger than the target allows; confirming again answers the record (200).
         */
        post: operations["confirmRawDataUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/raw_data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Raw-data records of a project (or of every project the caller can read), newest first. */
        get: operations["listRawData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/raw_data/{raw_data_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        /** A raw-data record. */
        get: operations["getRawData"];
        put?: never;
        post?: never;
        /** Deletes the record and its links; its stored file is purged in the background, durably. */
        delete: operations["deleteRawData"];
        options?: never;
        head?: never;
        /** Changes name, source (empty or null clears it) and metadata (replaced); the file itself never changes. */
        patch: operations["updateRawData"];
        trace?: never;
    };
    "/raw_data/{raw_data_id}/download-url": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        /** A short-lived signed URL serving the file as uploaded (under its filename). */
        get: operations["getRawDataDownloadUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/raw_data/{raw_data_id}/cell_measurements": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        /** Ids of the measurements linked to this file, oldest link first. */
        get: operations["listRawDataMeasurements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/raw_data": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        /** Raw-data records linked to this measurement, oldest link first. */
        get: operations["listMeasurementRawData"];
        put?: never;
        /** Links raw-data records of the measurement's project to it (idempotent). */
        post: operations["attachMeasurementRawData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cell_measurements/{measurement_id}/raw_data/{raw_data_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
                raw_data_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Removes one link (the raw-data record stays); 404 when they are not linked. */
        delete: operations["detachMeasurementRawData"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/materials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The system catalogue of materials, and the organization's own in the project; by name unless asked otherwise. */
        get: operations["listMaterials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/materials/{material_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                material_id: string;
            };
            cookie?: never;
        };
        /** A material of the system catalogue or of the organization. */
        get: operations["getMaterial"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/material_property_datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A material's property datasets in the projects the caller can read (or one project), newest first. */
        get: operations["listMaterialPropertyDatasets"];
        put?: never;
        /**
         * A table of a material's measured properties, uploaded as Parquet (multipart); columns select and name the file's columns by position.
         * @description `columns` is a form field holding JSON: a list of {name, unit, source_column_index}; without
         *     it every column of the file is kept under its own name. The file is stored as uploaded under
         *     the project's prefix; at most 100,000 rows. Errors name the field (["body", "file"],
         *     ["body", "columns", i, ...]) and nothing is stored.
         */
        post: operations["createMaterialPropertyDataset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/material_property_datasets/{dataset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        /** A dataset record (its data is at .../data). */
        get: operations["getMaterialPropertyDataset"];
        put?: never;
        post?: never;
        /** Deletes the dataset; its stored files are purged in the background, durably. */
        delete: operations["deleteMaterialPropertyDataset"];
        options?: never;
        head?: never;
        /** Renames the dataset or reselects its columns from the stored file. */
        patch: operations["updateMaterialPropertyDataset"];
        trace?: never;
    };
    "/material_property_datasets/{dataset_id}/data": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        /** The dataset's columns by name, each a list of values (null where the file holds none or NaN). */
        get: operations["getMaterialPropertyDatasetData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/material_property_datasets/{dataset_id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Replaces the dataset's file (multipart, as create); data_version goes up by one.
         * @description Without `columns` the stored column specs are kept, and must fit the new file.
         */
        patch: operations["replaceMaterialPropertyDatasetFile"];
        trace?: never;
    };
    "/material_property_datasets/{dataset_id}/download-url": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        /** A short-lived signed URL serving the dataset's Parquet file as uploaded. */
        get: operations["getMaterialPropertyDatasetDownloadUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analyses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The analyses of one measurement, or of one project (exactly one of measurement_id and project_id), newest first. */
        get: operations["listAnalyses"];
        put?: never;
        /**
         * Features extracted from a measurement, uploaded as a Parquet table (multipart) with column specs, plot presets and metadata.
         * @description columns, plots and metadata are form fields holding JSON. Every column a spec or a plot preset
         *     names must be a column of the file (and, when specs are given, among them). At most 100,000
         *     rows. Errors name the field (["body", "file"], ["body", "plots", i, "y", j]) and nothing is stored.
         */
        post: operations["createAnalysis"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analyses/{analysis_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        /** An analysis record (its table is at .../download-url). */
        get: operations["getAnalysis"];
        put?: never;
        post?: never;
        /** Deletes the analysis; its table is purged in the background, durably. */
        delete: operations["deleteAnalysis"];
        options?: never;
        head?: never;
        /** Changes the record's fields (the table itself never changes); specs and presets are checked against it. */
        patch: operations["updateAnalysis"];
        trace?: never;
    };
    "/analyses/{analysis_id}/download-url": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        /** A short-lived signed URL serving the analysis's Parquet table as uploaded. */
        get: operations["getAnalysisDownloadUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /** @description Text column filter (api/listQuery.ts): eq., neq., like., ilike. (% and * are wildcards) with a value, or in.(a,b) with at least one non-blank item. */
        FilterText: string;
        /** @description Date column filter: eq., gte., lte., gt. or lt. with an ISO 8601 date or date-time on the calendar (February 29 only in leap years). */
        FilterDate: string;
        /** @description An ISO 8601 date or date-time on the calendar, for the <column>_gt and <column>_lt range parameters. */
        DateBound: string;
        /** @description Number column filter: eq., neq., gte., lte., gt. or lt. with a decimal number (up to 15 digits before and after the point, an optional exponent of up to 2 digits), or in.(a,b) of such numbers. A number the column cannot hold matches nothing. */
        FilterNumber: string;
        /** @description Boolean column filter: eq.true, eq.false, is.true, is.false or is.null. */
        FilterBoolean: string;
        /** @description Work status filter: eq. or neq. with one of pending, running, completed, failed, canceled, or in.(a,b) of them. */
        FilterWorkStatus: string;
        /** @description Planned measurement status filter: a bare value (exact), eq. or neq. with one of requested, scheduled, in_progress, completed, cancelled, or in.(a,b) of them. */
        FilterPlanStatus: string;
        /** @description Measurement type filter: a bare value (exact), eq. or neq. with one of time_series, file, properties, or in.(a,b) of them. */
        FilterMeasurementType: string;
        /** @description Processing status filter: eq. or neq. with one of pending, running, ready, failed, or in.(a,b) of them. */
        FilterProcessingStatus: string;
        /** @description Service event type filter: eq. or neq. with one of calibration, preventive_maintenance, firmware, repair, other, or in.(a,b) of them. */
        FilterServiceEventType: string;
        /** @description Service event status filter: eq. or neq. with one of open, completed, or in.(a,b) of them. */
        FilterServiceEventStatus: string;
        /** @description Incident category filter: eq. or neq. with one of hardware_failure, maintenance, calibration, decommissioned, other, or in.(a,b) of them. */
        FilterIncidentCategory: string;
        Name: string;
        Error: {
            /** @enum {string} */
            error_code: "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "SCHEDULE_STALE" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "RATE_LIMITED" | "USAGE_LIMIT_EXCEEDED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
            message: string;
            detail: unknown;
        };
        ValidationErrorItem: {
            loc: (string | number)[];
            msg: string;
            type: string;
            input?: unknown;
            ctx?: Record<string, never>;
        };
        HTTPValidationError: {
            detail: components["schemas"]["ValidationErrorItem"][];
        };
        Page: {
            items: unknown[];
            /** @description Items on this page. */
            count: number;
            /** @description All matches. */
            total: number;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "degraded";
            /** @enum {string} */
            database: "ok" | "unreachable";
            /** @enum {string} */
            temporal: "ok" | "unreachable";
        };
        ProjectRolePermission: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            project_role_id: string;
            /** @description resource:action */
            permission: string;
            /** Format: date-time */
            created_at: string;
        };
        UserProjectRole: {
            /** Format: uuid */
            user_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            project_role_id: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            project_roles: {
                /** Format: uuid */
                id: string;
                name: string;
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
                project_role_permissions: components["schemas"]["ProjectRolePermission"][];
            };
        };
        Project: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            organization_id: string;
            description?: string | null;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            cell_spec_project_mappings?: Record<string, never>[] | null;
            user_project_roles?: components["schemas"]["UserProjectRole"][] | null;
        };
        NullableText: string | null;
        Site: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            name: string;
            location: string | null;
            notes: string | null;
            /** Format: uuid */
            created_by: string;
            created_by_email: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Cyclers at the site in projects the caller can read. */
            cycler_ids: string[];
        };
        SiteCreate: {
            name: components["schemas"]["Name"];
            location?: components["schemas"]["NullableText"];
            notes?: components["schemas"]["NullableText"];
        };
        /** @description Only the provided fields change; other Site fields are ignored. */
        SiteUpdate: {
            name?: components["schemas"]["Name"];
            location?: components["schemas"]["NullableText"];
            notes?: components["schemas"]["NullableText"];
        };
        CyclerCreate: {
            name: components["schemas"]["Name"];
            /** Format: uuid */
            project_id: string;
            manufacturer?: string | null;
            model?: string | null;
            version?: string | null;
            serial_number?: string | null;
            firmware_version?: string | null;
            hostname?: string | null;
            ip_address?: string | null;
            port?: number | null;
            /** Format: date-time */
            last_calibrated_at?: string | null;
            calibration_interval_days?: number | null;
            notes?: components["schemas"]["NullableText"];
        };
        CyclerUpdate: {
            name?: components["schemas"]["Name"];
            /** Format: uuid */
            site_id?: string;
            /** Format: uuid */
            project_id?: string;
            manufacturer?: string | null;
            model?: string | null;
            version?: string | null;
            serial_number?: string | null;
            firmware_version?: string | null;
            hostname?: string | null;
            ip_address?: string | null;
            port?: number | null;
            /** Format: date-time */
            last_calibrated_at?: string | null;
            calibration_interval_days?: number | null;
            notes?: components["schemas"]["NullableText"];
        };
        Cycler: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            site_id: string;
            /** Format: uuid */
            project_id: string;
            name: string;
            manufacturer?: string | null;
            model?: string | null;
            version?: string | null;
            serial_number?: string | null;
            firmware_version?: string | null;
            hostname?: string | null;
            ip_address?: string | null;
            port?: number | null;
            /** Format: date-time */
            last_calibrated_at?: string | null;
            calibration_interval_days?: number | null;
            /**
             * Format: date-time
             * @description last_calibrated_at + calibration_interval_days, kept current on every change.
             */
            calibration_due_at: string | null;
            notes?: string | null;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CyclerServiceEvent: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            cycler_id: string;
            /** @enum {string} */
            event_type: "calibration" | "preventive_maintenance" | "firmware" | "repair" | "other";
            /** @enum {string} */
            status: "open" | "completed";
            notes?: string | null;
            completion_notes?: string | null;
            /** Format: date-time */
            started_at: string;
            /** Format: date-time */
            completed_at?: string | null;
            /** Format: uuid */
            created_by: string;
            /** Format: uuid */
            completed_by?: string | null;
            /**
             * Format: date-time
             * @description When the visit is booked; null on an event recorded after the fact.
             */
            scheduled_for?: string | null;
            /**
             * Format: date-time
             * @description When the booked visit is expected to end.
             */
            scheduled_until?: string | null;
            /**
             * Format: date-time
             * @description completed_at, under the Python client's name (null: still open).
             */
            performed_at?: string | null;
            /**
             * Format: uuid
             * @description completed_by under the Python client's name.
             */
            performed_by?: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CompletedServiceEvent: components["schemas"]["CyclerServiceEvent"] & {
            cycler: components["schemas"]["Cycler"];
        };
        ServiceEventOpen: {
            /** @enum {string} */
            event_type: "calibration" | "preventive_maintenance" | "firmware" | "repair" | "other";
            notes?: components["schemas"]["NullableText"];
            /** Format: date-time */
            started_at?: string;
            /**
             * Format: date-time
             * @description The booked visit; no reservation may overlap the open event from then (or from its start).
             */
            scheduled_for?: string | null;
            /**
             * Format: date-time
             * @description When the visit should end (after scheduled_for, else 400); without it the event holds the cycler until completed.
             */
            scheduled_until?: string | null;
        };
        /** @description Completes the open event; with none open, records an event already done (of event_type, default calibration) in one call. */
        ServiceEventComplete: {
            notes?: components["schemas"]["NullableText"];
            /**
             * Format: date-time
             * @description Default now; for a calibration, the new last_calibrated_at.
             */
            completed_at?: string;
            /**
             * Format: date-time
             * @description The Python client's name for completed_at.
             */
            performed_at?: string;
            /**
             * @description What was done, when no event is open (default calibration); ignored otherwise.
             * @enum {string}
             */
            event_type?: "calibration" | "preventive_maintenance" | "firmware" | "repair" | "other";
            calibration_interval_days?: number;
        };
        Channel: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            cycler_id: string;
            /** Format: uuid */
            organization_id: string;
            /**
             * Format: uuid
             * @description Inherited from the cycler.
             */
            project_id: string;
            notes?: string | null;
            /** @description Maximum rated current (A). */
            max_amps?: number | null;
            /** @description Minimum rated voltage (V). */
            min_volts?: number | null;
            /** @description Maximum rated voltage (V). */
            max_volts?: number | null;
            out_of_commission: boolean;
            /** Format: date-time */
            service_scheduled_at?: string | null;
            /** Format: date-time */
            service_scheduled_until?: string | null;
            /** Format: uuid */
            created_by: string;
            created_by_email: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ChannelCreate: {
            name: components["schemas"]["Name"];
            notes?: components["schemas"]["NullableText"];
            max_amps?: number | null;
            min_volts?: number | null;
            max_volts?: number | null;
            /** @description Refused with 400: a channel starts in commission; take it out with PATCH. */
            out_of_commission?: unknown;
        };
        ChannelUpdate: {
            name?: components["schemas"]["Name"];
            notes?: components["schemas"]["NullableText"];
            max_amps?: number | null;
            min_volts?: number | null;
            max_volts?: number | null;
            /** @description A change records an incident; 409 while a measurement runs on the channel. */
            out_of_commission?: boolean;
            /**
             * @description Recorded with an out_of_commission change (default other).
             * @enum {string}
             */
            incident_category?: "hardware_failure" | "maintenance" | "calibration" | "decommissioned" | "other";
            incident_description?: components["schemas"]["NullableText"];
            /** @description The Python client's name for incident_description when taking the channel out. */
            incident_notes?: string | null;
            /** @description Notes on bringing the channel back (with out_of_commission false). */
            resolution_notes?: string | null;
            /**
             * Format: date-time
             * @description Start of a booked service of the channel: no reservation may overlap it. null clears the window. Sent with out_of_commission it is kept on the incident too.
             */
            service_scheduled_at?: string | null;
            /**
             * Format: date-time
             * @description Its end (after service_scheduled_at, else 400); sent alone it ends the window already booked.
             */
            service_scheduled_until?: string | null;
        };
        /** @description An outage: the channel taken out of commission (started_at) and, once it is back, when (resolved_at) and with what notes. The Python client's ChannelIncident. */
        ChannelIncident: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            channel_id: string;
            /** @description The state the channel was put in. */
            out_of_commission: boolean;
            /** @enum {string|null} */
            incident_category: "hardware_failure" | "maintenance" | "calibration" | "decommissioned" | "other" | null;
            description?: string | null;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string;
            category: string | null;
            notes: string | null;
            /** Format: date-time */
            service_scheduled_at?: string | null;
            /** Format: date-time */
            service_scheduled_until?: string | null;
            /**
             * Format: uuid
             * @description The cycler service event that took the channel out (and brings it back when completed); null for an outage of the channel alone.
             */
            service_event_id?: string | null;
            /** Format: date-time */
            resolved_at: string | null;
            resolution_notes: string | null;
            /** Format: uuid */
            resolved_by?: string | null;
        };
        VariableNamesDetail: {
            /** Format: uuid */
            parameterized_model_id: string;
            /** @description Variables of time alone: usable as extra_variables (result columns) and as fit targets. */
            variable_names: string[];
            /** @description Variables that also vary in space (over the electrodes, particles or a pouch cell): they have no single value per time, so they cannot be extra_variables. */
            spatial_variable_names: string[];
            parameter_names: string[];
            simulator_version: string;
        };
        OrganizationMember: {
            /** Format: uuid */
            id: string;
            email: string;
            is_active: boolean;
            /** Format: date-time */
            created_at?: string;
            organization_role: {
                /** @enum {string} */
                name: "Admin" | "Member";
            };
            user_project_roles: {
                /** Format: uuid */
                project_id: string;
                /** Format: uuid */
                project_role_id: string;
            }[];
        };
        InviteResult: {
            /** Format: uuid */
            user_id: string;
            email?: string;
            invite_sent: boolean;
            already_member: boolean;
            role_name: string;
        };
        /** @description Free-form labels. Stored trimmed, deduplicated case-insensitively (the first spelling kept) and sorted; at most 50 after that, else 422. */
        MeasurementTags: string[];
        MeasurementTagUsage: {
            tag: string;
            usage_count: number;
        };
        /** @description The protocol the measurement ran: an object as the Python client sends it (e.g. {"name": "1C cycling", "ambient_temperature_degc": 25}), or a plain name. Answered as given; the protocol list filter and search match its name. */
        MeasurementProtocol: Record<string, never> | string | null;
        Quantity: {
            value: number;
            unit?: string | null;
        };
        /** @description Named values with units, e.g. {"capacity": {"value": 5, "unit": "A.h"}}. */
        QuantityMap: {
            [key: string]: components["schemas"]["Quantity"];
        } | null;
        /** @description A cell component (anode, cathode, electrolyte, separator); free-form fields. */
        Component: Record<string, never> | null;
        CellSpecificationCreate: {
            /** Format: uuid */
            project_id: string;
            name: components["schemas"]["Name"];
            description?: components["schemas"]["NullableText"];
            manufacturer?: string | null;
            form_factor?: string | null;
            chemistry?: string | null;
            ratings?: components["schemas"]["QuantityMap"];
            anode?: components["schemas"]["Component"];
            cathode?: components["schemas"]["Component"];
            electrolyte?: components["schemas"]["Component"];
            separator?: components["schemas"]["Component"];
            properties?: Record<string, never> | null;
            /** @description Where the specification comes from (datasheet */
            source?: string | null;
            notes?: components["schemas"]["NullableText"];
        };
        /** @description Only the fields sent change. ratings, anode, cathode, electrolyte, separator and properties are merged into what is stored (nested objects too; a key sent as null is removed); send null for the whole field to clear it. */
        CellSpecificationUpdate: {
            name?: components["schemas"]["Name"];
            description?: components["schemas"]["NullableText"];
            manufacturer?: string | null;
            form_factor?: string | null;
            chemistry?: string | null;
            ratings?: components["schemas"]["QuantityMap"];
            anode?: components["schemas"]["Component"];
            cathode?: components["schemas"]["Component"];
            electrolyte?: components["schemas"]["Component"];
            separator?: components["schemas"]["Component"];
            properties?: Record<string, never> | null;
            source?: string | null;
            notes?: components["schemas"]["NullableText"];
        };
        CellSpecification: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            name: string;
            description?: string | null;
            manufacturer?: string | null;
            form_factor?: string | null;
            chemistry?: string | null;
            ratings?: components["schemas"]["QuantityMap"];
            anode?: components["schemas"]["Component"];
            cathode?: components["schemas"]["Component"];
            electrolyte?: components["schemas"]["Component"];
            separator?: components["schemas"]["Component"];
            properties?: Record<string, never> | null;
            source?: string | null;
            notes?: string | null;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CellBatchCreate: {
            name: components["schemas"]["Name"];
            notes?: components["schemas"]["NullableText"];
            /**
             * Format: date
             * @description YYYY-MM-DD.
             */
            date_manufactured?: string | null;
            properties?: Record<string, never> | null;
        };
        CellBatchUpdate: {
            name?: components["schemas"]["Name"];
            notes?: components["schemas"]["NullableText"];
            /** Format: date */
            date_manufactured?: string | null;
            properties?: Record<string, never> | null;
        };
        CellBatch: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            cell_specification_id: string;
            name: string;
            notes?: string | null;
            date_manufactured?: string | null;
            properties?: Record<string, never> | null;
            instance_count: number;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CellInstanceCreate: {
            name: components["schemas"]["Name"];
            serial_number?: string | null;
            batch?: string | null;
            /**
             * Format: uuid
             * @description A cell batch (lot) of the same specification; null takes the cell out of its lot.
             */
            batch_id?: string | null;
            notes?: components["schemas"]["NullableText"];
            properties?: Record<string, never> | null;
            /**
             * Format: date
             * @description Day of manufacture, YYYY-MM-DD.
             */
            date_manufactured?: string | null;
            /** @description Values measured on this cell, e.g. {"mass": {"value": 68.2, "unit": "g"}}. */
            measured_properties?: Record<string, never> | null;
        };
        CellInstanceUpdate: {
            name?: components["schemas"]["Name"];
            serial_number?: string | null;
            batch?: string | null;
            /**
             * Format: uuid
             * @description A cell batch (lot) of the same specification; null takes the cell out of its lot.
             */
            batch_id?: string | null;
            notes?: components["schemas"]["NullableText"];
            properties?: Record<string, never> | null;
            /**
             * Format: date
             * @description Day of manufacture, YYYY-MM-DD.
             */
            date_manufactured?: string | null;
            /** @description Values measured on this cell, e.g. {"mass": {"value": 68.2, "unit": "g"}}. */
            measured_properties?: Record<string, never> | null;
        };
        CellInstance: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            cell_specification_id: string;
            name: string;
            serial_number?: string | null;
            batch?: string | null;
            /** Format: uuid */
            batch_id?: string | null;
            batch_name?: string | null;
            notes?: string | null;
            properties?: Record<string, never> | null;
            date_manufactured?: string | null;
            measured_properties?: Record<string, never> | null;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A measurement record; the measurement-data service adds its own fields (storage, processing report). */
        CellMeasurement: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            cell_instance_id: string;
            name: string;
            /** @enum {string} */
            measurement_type: "time_series" | "file" | "properties";
            /** Format: uuid */
            channel_id: string | null;
            /** Format: date-time */
            start_time: string | null;
            /** Format: date-time */
            end_time: string | null;
            /** Format: date-time */
            estimated_end_time: string | null;
            protocol: components["schemas"]["MeasurementProtocol"];
            tags?: components["schemas"]["MeasurementTags"];
            /**
             * Format: uuid
             * @description The experiment template (protocol) the measurement ran.
             */
            protocol_id?: string | null;
            /**
             * Format: uuid
             * @description The planned measurement this run is.
             */
            planned_measurement_id?: string | null;
            program_name?: string | null;
            test_setup: Record<string, never> | null;
            notes: string | null;
            properties?: components["schemas"]["QuantityMap"];
            /** Format: uuid */
            requested_by?: string | null;
            requested_by_email?: string | null;
            /** @enum {string} */
            processing_status: "pending" | "running" | "ready" | "failed";
            processing_error: string | null;
            processing_report?: components["schemas"]["MeasurementProcessingReport"];
            /**
             * Format: date-time
             * @description When data last arrived.
             */
            data_updated_at?: string | null;
            /** Format: uuid */
            created_by: string;
            created_by_email?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        PropertiesMeasurementCreate: {
            name: components["schemas"]["Name"];
            /**
             * @description Only properties is created here (default).
             * @enum {string}
             */
            measurement_type?: "time_series" | "file" | "properties";
            /** @description Measured values with units, e.g. {"ac_resistance": {"value": 0.012, "unit": "Ohm"}}. */
            properties: {
                [key: string]: components["schemas"]["Quantity"];
            };
            notes?: components["schemas"]["NullableText"];
            /** Format: uuid */
            channel_id?: string | null;
            /** Format: date-time */
            start_time?: string | null;
            /** Format: date-time */
            end_time?: string | null;
            /** Format: date-time */
            estimated_end_time?: string | null;
            protocol?: components["schemas"]["MeasurementProtocol"];
            tags?: components["schemas"]["MeasurementTags"];
            /**
             * Format: uuid
             * @description An experiment template of the organization.
             */
            protocol_id?: string | null;
            /**
             * Format: uuid
             * @description The planned measurement this run is: started on its channel, the plan is in_progress; ended, completed.
             */
            planned_measurement_id?: string | null;
            program_name?: string | null;
            test_setup?: Record<string, never> | null;
            /**
             * Format: uuid
             * @description A member of the organization; default the caller.
             */
            requested_by?: string | null;
        };
        CellMeasurementUpdate: {
            name?: components["schemas"]["Name"];
            notes?: components["schemas"]["NullableText"];
            /**
             * Format: uuid
             * @description Links the measurement to a channel; null detaches.
             */
            channel_id?: string | null;
            /** Format: date-time */
            start_time?: string | null;
            /** Format: date-time */
            end_time?: string | null;
            /** Format: date-time */
            estimated_end_time?: string | null;
            protocol?: components["schemas"]["MeasurementProtocol"];
            tags?: components["schemas"]["MeasurementTags"];
            /**
             * Format: uuid
             * @description An experiment template of the organization.
             */
            protocol_id?: string | null;
            /**
             * Format: uuid
             * @description The planned measurement this run is: started on its channel, the plan is in_progress; ended, completed.
             */
            planned_measurement_id?: string | null;
            program_name?: string | null;
            test_setup?: Record<string, never> | null;
            properties?: components["schemas"]["QuantityMap"];
            /** Format: uuid */
            requested_by?: string | null;
        };
        WatchState: {
            /** Format: uuid */
            measurement_id: string;
            watched: boolean;
        };
        LabCounts: {
            occupied: number;
            stale: number;
            free: number;
            /** @description Out-of-commission channels count here only. */
            out_of_commission: number;
        };
        LabMeasurement: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            data_updated_at?: string | null;
            /** Format: uuid */
            cell_instance_id: string;
            /** Format: date-time */
            start_time: string | null;
            /** Format: date-time */
            estimated_end_time: string | null;
            cell_instance_name: string;
            cell_specification_name: string;
            protocol_name: string | null;
            watched: boolean;
            requested_by_email: string | null;
            program_name: string | null;
        };
        LabChannel: {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * @description out_of_commission whenever the channel is taken out of service, whatever runs on it; never free then.
             * @enum {string}
             */
            state: "free" | "occupied" | "stale" | "out_of_commission";
            /** @description The measurement driving an occupied or stale state; absent when free or out of commission. */
            measurement?: components["schemas"]["LabMeasurement"];
            notes: string | null;
            out_of_commission: boolean;
            max_amps: number | null;
            min_volts: number | null;
            max_volts: number | null;
            /**
             * Format: date-time
             * @description The channel's own service window.
             */
            service_scheduled_at?: string | null;
            /** Format: date-time */
            service_scheduled_until?: string | null;
            /** @description The first reservation (planned measurement) not yet over on the channel, one under way included. */
            next_reservation?: {
                /** Format: uuid */
                id: string;
                name: string;
                /** Format: date-time */
                planned_start_time: string;
                /** Format: date-time */
                planned_end_time: string;
            } | null;
            /**
             * Format: date-time
             * @description When nothing holds the channel any more (now, to the minute, when free): from running measurements (end, else estimated end), reservations and service windows; null when held with no end or out of commission.
             */
            next_free_at?: string | null;
        };
        LabCycler: components["schemas"]["LabCounts"] & {
            /** Format: uuid */
            id: string;
            name: string;
            channel_count: number;
            manufacturer: string | null;
            model: string | null;
            serial_number: string | null;
            /** Format: date-time */
            last_calibrated_at: string | null;
            calibration_interval_days: number | null;
            /** Format: date-time */
            calibration_due_at: string | null;
            /** @description Open service events with their booked visit (scheduled_for, scheduled_until). */
            service_windows?: {
                /** Format: uuid */
                id: string;
                event_type: string;
                /** @enum {string} */
                status: "open";
                /** Format: date-time */
                started_at: string;
                /** Format: date-time */
                scheduled_for: string | null;
                /** Format: date-time */
                scheduled_until: string | null;
            }[];
            channels: components["schemas"]["LabChannel"][];
        };
        LabStatus: components["schemas"]["LabCounts"] & {
            sites: {
                /** Format: uuid */
                id: string;
                name: string;
                cyclers: components["schemas"]["LabCycler"][];
            }[];
        };
        /** @description The lab status as the board's grid draws it (view=grid): the same sites, cyclers, states and counts as the full view; each cycler's channels as columns, element i of every array being channel i (by name, then id). */
        LabStatusGrid: components["schemas"]["LabCounts"] & {
            sites: {
                /** Format: uuid */
                id: string;
                name: string;
                cyclers: (components["schemas"]["LabCounts"] & {
                    /** Format: uuid */
                    id: string;
                    name: string;
                    channel_count: number;
                    /** Format: date-time */
                    calibration_due_at: string | null;
                    /** @description As LabCycler's. */
                    service_windows: Record<string, never>[];
                    channels: {
                        id: string[];
                        name: string[];
                        state: ("free" | "occupied" | "stale" | "out_of_commission")[];
                        /** @description The next reservation's start (one under way included); null when none. */
                        next_reservation_start: (string | null)[];
                        service_scheduled_at: (string | null)[];
                        service_scheduled_until: (string | null)[];
                        /** @description The caller watches the measurement shown on the channel. */
                        watched: boolean[];
                        max_amps: (number | null)[];
                        min_volts: (number | null)[];
                        max_volts: (number | null)[];
                    };
                })[];
            }[];
        };
        SearchResults: {
            results: {
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                entity_type: "project" | "study" | "simulation" | "model" | "parameterized_model" | "optimization" | "optimization_template" | "experiment_template" | "pipeline" | "cell_specification" | "material" | "site" | "cycler" | "channel" | "cell_instance" | "cell_measurement" | "raw_data" | "analysis";
                name: string;
                /**
                 * Format: uuid
                 * @description Null for organization-level entities (sites).
                 */
                project_id: string | null;
                /**
                 * Format: uuid
                 * @description The containing entity: a cycler's site, a channel's cycler, an instance's specification, a measurement's instance, an analysis's measurement.
                 */
                parent_id: string | null;
            }[];
            query: string;
            /** @description Results available across pages (after the per_type cap). */
            total: number;
            limit: number;
            offset: number;
        };
        /** @description Strict checks are on by default; `skip_checks` names checks or issue codes (any case) to skip. */
        MeasurementValidationOptions: {
            /** @default true */
            strict: boolean;
            skip_checks?: string[];
        };
        InitiateUploadRequest: {
            measurement: {
                name: components["schemas"]["Name"];
                notes?: string | null;
            };
            /**
             * @default time_series
             * @enum {string}
             */
            measurement_type: "time_series" | "file";
            /** @description Required for a file measurement (one upload target each, in order); ignored for a time series. */
            filenames?: string[];
        };
        /** @description Short-lived credentials allowing only writes of object_path (S3 multipart). Never the service's own key. */
        MultipartUploadInfo: {
            endpoint: string;
            region: string;
            bucket: string;
            object_path: string;
            access_key_id: string;
            secret_access_key: string;
            session_token: string;
            expires_at?: string | null;
        };
        UploadInfo: {
            filename?: string | null;
            signed_url: string;
            token: string;
            /** @description Storage path (object key). */
            path: string;
            multipart?: components["schemas"]["MultipartUploadInfo"] | null;
            /** Format: date-time */
            expires_at?: string;
        };
        InitiateUploadResponse: {
            /** Format: uuid */
            measurement_id: string;
            uploads: components["schemas"]["UploadInfo"][];
        };
        ConfirmUploadRequest: {
            /** Format: uuid */
            cell_instance_id: string;
            /** @enum {string} */
            measurement_type?: "time_series" | "file";
            filenames?: string[];
            /** @description The record's fields; name and notes default to those given at initiate-upload. */
            measurement?: {
                name?: components["schemas"]["Name"];
                notes?: string | null;
                protocol?: components["schemas"]["MeasurementProtocol"];
                tags?: components["schemas"]["MeasurementTags"];
                /**
                 * Format: uuid
                 * @description An experiment template of the organization.
                 */
                protocol_id?: string | null;
                program_name?: string | null;
                test_setup?: Record<string, never> | null;
                properties?: Record<string, never> | null;
                /** Format: date-time */
                start_time?: string | null;
                /** Format: date-time */
                end_time?: string | null;
                /** Format: date-time */
                estimated_end_time?: string | null;
                /** Format: uuid */
                channel_id?: string | null;
                validation?: components["schemas"]["MeasurementValidationOptions"];
            };
        };
        /** @description The measurement record with its data state. */
        MeasurementDataRecord: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id?: string;
            /** Format: uuid */
            project_id?: string;
            /** Format: uuid */
            cell_instance_id: string;
            name: string;
            /** @enum {string} */
            measurement_type: "time_series" | "file" | "properties";
            /** @enum {string} */
            processing_status: "pending" | "running" | "ready" | "failed";
            processing_error?: string | null;
            steps_created: number;
            /** @description 0 after the upload; a larger number after each extend switched in. Numbers are never reused, so an extend that was refused or abandoned leaves a gap: compare versions, do not count extends with them. */
            data_version?: number;
            row_count?: number | null;
            columns?: string[] | null;
            first_time?: number | null;
            last_time?: number | null;
            filenames?: string[] | null;
            /** Format: date-time */
            data_updated_at?: string | null;
            processing_report?: components["schemas"]["MeasurementProcessingReport"];
        };
        /** @description The last processing's issues (errors failed it; warnings are kept): mode upload or extend, the data version, the issues. Null before any processing. */
        MeasurementProcessingReport: {
            mode?: string;
            version?: number;
            issues?: components["schemas"]["MeasurementValidationIssue"][];
        } | null;
        MeasurementValidationIssue: {
            /** @description Stable lower-case code, e.g. current_sign_reversed. */
            code: string;
            /** @enum {string} */
            severity: "error" | "warning";
            message: string;
            payload: Record<string, never>;
        };
        MeasurementValidationReport: {
            /** Format: uuid */
            measurement_id: string;
            /** @enum {string} */
            processing_status: "pending" | "running" | "ready" | "failed";
            processing_error: string | null;
            /** @enum {string|null} */
            mode: "upload" | "extend" | null;
            version: number | null;
            /** Format: date-time */
            processed_at?: string | null;
            error_count: number;
            warning_count: number;
            issues: components["schemas"]["MeasurementValidationIssue"][];
        };
        /** @description Column name → values (numbers, strings or null), all of one length. */
        ColumnTable: {
            [key: string]: (number | string | boolean | null)[];
        };
        Model: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            user_id: string;
            description?: string | null;
            is_custom_model: boolean;
            chemistry?: string;
            /** @description The normalized PyBaMM model specification. */
            config?: Record<string, never>;
            /** @description The PyBaMM version the model was built with. */
            simulator_version: string;
            created_by_email?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A built-in PyBaMM model, its options, parameter set, parameter values and simulation settings. */
        PybammModelConfig: {
            /** @enum {string} */
            type: "SPM" | "SPMe" | "DFN" | "ECM";
            options?: Record<string, never>;
            parameter_set?: string;
            parameters?: components["schemas"]["ParameterValues"];
            simulation_settings?: components["schemas"]["SimulationSettings"];
            custom_variables?: components["schemas"]["CustomVariable"][];
        };
        /** @description A variable the model adds to its own: an arithmetic expression over the model's variables, named as PyBaMM names them ("Voltage [V] * Current [A]"), with numbers, + - * / **, parentheses and exp, log, sqrt, sin, cos, tanh, abs, maximum, minimum; it may use custom variables defined before it. Simulations solve it like any other variable (a result column through extra_variables, or a fit target). */
        CustomVariable: {
            name: string;
            expression: string;
        };
        SimulationSettings: {
            /** @description Mesh points by spatial variable name (e.g. x_n, r_p), 1 to 200 each. */
            var_pts?: {
                [key: string]: number;
            } | null;
        };
        /** @description PyBaMM parameter (or protocol input) names to numbers. A parameter whose unit measures a quantity that cannot be negative (a length, temperature in K, concentration, diffusivity, conductivity, resistance, capacitance, ...; tables/parameter_units.json) must not be negative, and a capacity in A.h must be greater than 0. */
        ParameterValues: {
            [key: string]: number;
        } | null;
        ParameterizedModelCreate: {
            name: components["schemas"]["Name"];
            /** Format: uuid */
            model_id: string;
            parameters?: components["schemas"]["ParameterValues"];
            description?: string | null;
            /** Format: uuid */
            project_id?: string;
            /** Format: uuid */
            cell_spec_id?: string | null;
        };
        ParameterizedModelUpdate: {
            name?: components["schemas"]["Name"];
            description?: string | null;
            parameters?: components["schemas"]["ParameterValues"];
        };
        ParameterizedModel: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            model_id: string;
            /** Format: uuid */
            cell_spec_id?: string | null;
            description?: string | null;
            parameters: {
                [key: string]: number;
            };
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description An ionworks-schema Pipeline's to_config() of entry and calculation elements: {elements: {name: element}}. */
        ModelBuilderConfig: {
            elements: {
                [key: string]: Record<string, never>;
            };
        };
        ModelBuilder: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            model_id: string;
            name: string;
            description?: string | null;
            config: components["schemas"]["ModelBuilderConfig"];
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ReadinessIssue: {
            /** @enum {string} */
            severity: "error" | "warning";
            /** @description missing_value, unusable_value, calculation_failed, no_unit, not_a_model_parameter. */
            code: string;
            message: string;
            parameter?: string;
            path?: string;
            element?: string;
        };
        ReadinessReport: {
            ready: boolean;
            issues: components["schemas"]["ReadinessIssue"][];
            /** @description Mapping lines read and calculations run. */
            resolved: number;
            total: number;
        };
        /** @description UCP as an object, UCP YAML or JSON text, or PyBaMM experiment lines (one step per line, or a list of lines). A DriveCycle step has at most 100,000 data pairs. */
        ProtocolInput: string | Record<string, never> | string[];
        /** @description {"quick_model": {"capacity", "chemistry", "resistance_pct"?}} (or the same keys flat), {"model_id", "parameters"}, {"model", "parameters"} (model: a stored model id, as a string or {"id"}, or a model config as POST /models takes it, e.g. {"type": "SPMe"}), or a parameterized model id. */
        ParameterizedModelRef: Record<string, never> | string;
        /** @description Design of experiments: grid (the default: every combination of the rows' levels, discrete values or count evenly spaced points of a range, both ends included) or random / latin_hypercube draws of count points (latin_hypercube: one in each of count strata of every row; seed makes a draw reproducible). At most 10000 points (for a grid, the product of the rows' counts); row names are distinct, and a range row's max is not below its min. */
        DOERequest: {
            /** @enum {string} */
            sampling?: "grid" | "random" | "latin_hypercube";
            /** @description The points random and latin_hypercube draw (required for them); a grid does not use it. */
            count?: number | null;
            seed?: number | null;
            rows: components["schemas"]["DOERow"][];
        } | null;
        DOERow: {
            /** @enum {string} */
            type: "discrete" | "range" | "normal";
            name: components["schemas"]["DOERowName"];
            /** @description discrete: the levels. */
            values?: number[];
            /** @description range: its lower end. */
            min?: number;
            /** @description range: its upper end, not below min. */
            max?: number;
            /** @description range: grid points, both ends included (a grid needs it). */
            count?: number;
            /** @description normal: its mean. */
            mean?: number;
            /** @description normal: its standard deviation. */
            std?: number;
        } & (unknown & unknown & unknown);
        /** @description The parameter or input the row varies. */
        DOERowName: string;
        SubmittedSimulation: {
            /** Format: uuid */
            simulation_id: string;
            /** Format: uuid */
            job_id: string;
        };
        ExperimentTemplate: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            content_hash: string;
            description?: string | null;
            input_references: string[];
            /** @description The canonical UCP JSON. */
            protocol_config?: Record<string, never>;
            parameters_schema?: Record<string, never> | null;
            source_protocol?: string;
            experiment_parameters?: Record<string, never>;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description One submission. Lists leave out model and protocol. */
        SimulationBatch: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            name: string;
            /** Format: uuid */
            project_id: string | null;
            /** @description Simulations submitted. */
            size: number;
            /** @description The model specification its simulations run. */
            model?: Record<string, never>;
            /** @description The canonical UCP JSON. */
            protocol?: Record<string, never>;
            extra_variables: string[];
            max_backward_jumps?: number | null;
            force_rerun: boolean;
            /** Format: uuid */
            experiment_template_id?: string | null;
            simulator_version: string;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** @description The simulations' jobs by status. */
            jobs: {
                pending: number;
                running: number;
                completed: number;
                failed: number;
                canceled: number;
            };
            /** @description No job is pending or running. */
            is_terminal: boolean;
        };
        Simulation: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            job_id: string;
            /** Format: uuid */
            batch_id: string;
            name: string;
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed" | "canceled";
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id?: string | null;
            /** Format: uuid */
            parameterized_model_id?: string | null;
            /** Format: uuid */
            experiment_template_id?: string | null;
            design_parameters: {
                [key: string]: number;
            };
            experiment_parameters?: {
                [key: string]: number;
            };
            metrics?: Record<string, never> | null;
            /** @description Set exactly when the results are stored. */
            storage_folder?: string | null;
            simulator_version?: string | null;
            /** Format: uuid */
            reused_from_simulation_id?: string | null;
            content_hash?: string;
            extra_variables?: string[];
            max_backward_jumps?: number | null;
            force_rerun?: boolean;
            /** @description The canonical UCP JSON. */
            protocol?: Record<string, never>;
            /** @description The model specification the worker ran. */
            model?: Record<string, never>;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        Job: {
            /** Format: uuid */
            job_id: string;
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed" | "canceled";
            job_type: string;
            priority: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            is_terminal: boolean;
            is_failed: boolean;
            error?: string;
            /** @description CONFIGURATION_ERROR, SOLVER_ERROR or WORKER_ERROR. */
            error_code?: string;
            result?: Record<string, never>;
            /** @description While running; a simulation (shown running once its solve takes more than half a second) counts the protocol steps solved, a fit its optimizer iterations against the budget (optimizer.max_iterations). */
            progress?: {
                steps_done?: number;
                steps_total?: number;
                fraction?: number;
                /** @description True while the work waits for a free worker (a fit; a simulation that is not yet being solved is pending). */
                queued?: boolean;
            };
            /** Format: uuid */
            simulation_id?: string | null;
            /** Format: uuid */
            organization_id?: string;
            /** Format: uuid */
            project_id?: string | null;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            started_at?: string | null;
            /** Format: date-time */
            finished_at?: string | null;
        };
        Study: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            description?: string | null;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            simulation_count?: number;
            measurement_count?: number;
            simulation_ids?: string[];
            measurement_ids?: string[];
        };
        StudyLink: {
            /** Format: uuid */
            study_id: string;
            /** Format: uuid */
            simulation_id?: string;
            /** Format: uuid */
            measurement_id?: string;
            linked: boolean;
        };
        /** @description One plot: a variable on the x axis (e.g. "Time [s]") against one or more on the y axis. */
        BoardPlot: {
            title?: string | null;
            x: {
                variable: string;
                label?: string | null;
                /** @enum {string} */
                scale?: "linear" | "log";
            };
            y: {
                variables: string[];
                label?: string | null;
                /** @enum {string} */
                scale?: "linear" | "log";
            };
        };
        SimulationBoardCreate: {
            name: components["schemas"]["Name"];
            description?: string | null;
            /** @description Simulations linked to the study. */
            simulation_ids?: string[];
            plots?: components["schemas"]["BoardPlot"][];
        };
        SimulationBoardUpdate: {
            name?: components["schemas"]["Name"];
            description?: string | null;
            simulation_ids?: string[];
            plots?: components["schemas"]["BoardPlot"][];
        };
        SimulationBoard: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id?: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            study_id: string;
            name: string;
            description?: string | null;
            simulation_ids: string[];
            plots: Record<string, never>[];
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * @description One element, as the Python client serializes ionworks-schema objects (iws.Pipeline(...).to_config()):
         *     entry (DirectEntry) {values: {parameter: number}, source?};
         *     calculation {type: ElectrodeCapacity (use_stoich_window false, method auto) | AreaToSquareWidthHeight, ...};
         *     data_fit (DataFit) {objectives: {name: {type: CurrentDriven, data: "db:<measurement_id>" or {column: [values]},
         *     options: {model: SPM | SPMe | DFN | an engine model object, "objective variables"?}, parameters?: fixed values}},
         *     parameters: {name: {initial_value, bounds}}, cost?: {type: RMSE | MAE | Max | SSE, objective_weights?: {objective: weight > 0}},
         *     optimizer?: {type: ScipyMinimize (method, maxiter, tol) | ScipyDifferentialEvolution | ScipyLeastSquares}, options?: {max_iterations}};
         *     validation (Validation) {objectives: as data_fit, one objective}. A DataFit of several objectives (or with
         *     objective_weights) is one joint fit, stored as the engine's array_data_fit (independent_variable "objective", a
         *     data set per objective, in order): its cost is the sum of each objective's cost times its weight (1 when not
         *     given); the objectives share options and parameters and differ in their data; its result adds
         *     objective_results {objective: {weight, cost, summary_stats, n_points, coverage}}. What Cellar's engine cannot
         *     run (other objective types, several objectives in a Validation, priors, multistarts, samplers, other
         *     calculations) is 422 naming the field.
         *     The engine's own form is accepted too; its fields depend on element_type:
         *     entry {values: {parameter: number}} or {pipeline_id} of a completed pipeline;
         *     calculation {type: electrode_volume_fraction | electrode_capacity | cell_mass | initial_soc_from_voltage | area_to_square_width_height, ...};
         *     data_fit {model: {type, ...}, parameters: {name: {bounds: [lo, hi], initial_value}}, data: "db:<measurement_id>" or {column: [values]} (at most 1,000 rows),
         *     time_range?: [start_s, end_s] (the rows of data used; needed for a measurement of more than FIT_MAX_ROWS rows, 20,000 by default),
         *     fixed_parameters?, protocol?, cost?: RMSE | MAE | Max | SSE, target?, optimizer?};
         *     array_data_fit: as data_fit with independent_variable and datasets [{value, data, time_range?, weight?}] instead of data, and mode?
         *     (the joint cost is the sum of the data sets' costs times their weight, default 1);
         *     validation {model, data, time_range?, parameter_values?, protocol?, target?}.
         *     A data_fit, array_data_fit or validation element is at most 1,500,000 bytes as JSON (it is sent to the worker whole);
         *     model.simulation_settings.var_pts counts are 1 to 200.
         */
        PipelineElementInput: {
            /** @enum {string} */
            element_type: "entry" | "calculation" | "data_fit" | "array_data_fit" | "validation";
            /**
             * @description array_data_fit only (default joint). joint: one parameter set fitted to all data sets together (per_dataset in the
             *     result holds each data set's residual statistics under it). per_dataset: the joint fit first, then each
             *     data set fitted on its own from the joint values; the result's per_dataset lists
             *     {key (the data set's value), parameter_values, cost, summary_stats, joint_cost, joint_summary_stats, ...}.
             *     In both modes the element's parameter_values, which later elements receive, are the joint fit's.
             * @enum {string}
             */
            mode?: "joint" | "per_dataset";
        } & (unknown & unknown & unknown);
        /** @description Element name → element, in running order (JSON object order). With more than one element, names that are whole numbers are refused: JSON object order puts them first. */
        PipelineElements: {
            [key: string]: components["schemas"]["PipelineElementInput"];
        };
        PipelineCreate: {
            /** Format: uuid */
            project_id: string;
            /** @description Default "Pipeline". */
            name?: components["schemas"]["Name"];
            description?: string | null;
            elements: components["schemas"]["PipelineElements"];
            /** @description Stored with the pipeline. */
            options?: Record<string, never>;
        };
        /** @description The elements at the top level, or inside config as the Python client sends them ({"project_id", "config": {"elements": ...}, "name"?}); exactly one of the two. */
        SimplePipelineCreate: {
            /** Format: uuid */
            project_id: string;
            /** @description Default "Simple pipeline". */
            name?: components["schemas"]["Name"];
            description?: string | null;
            elements?: components["schemas"]["PipelineElements"];
            /** @description Other keys of the client's serialized config are ignored. */
            config?: {
                elements: components["schemas"]["PipelineElements"];
            };
            /** @description Stored with the pipeline. */
            options?: Record<string, never>;
        } & (unknown | unknown);
        PipelineUpdate: {
            name?: components["schemas"]["Name"];
            description?: string | null;
        };
        /** @description The exception type and a link to the captured diagnostic event; never the exception message. */
        PipelineErrorDetail: {
            exception_type?: string;
            /** @description CONFIGURATION_ERROR, SOLVER_ERROR or WORKER_ERROR (infrastructure). */
            error_code?: string;
            /** Format: uuid */
            diagnostic_event_id?: string;
            /** @description GET this for the message and stack trace (project admins). */
            diagnostic_url?: string;
            element_name?: string | null;
        } | null;
        Pipeline: {
            /** @description error_detail in a sentence (exception type, element, diagnostic link), as the Python client reports it; null unless failed. */
            error?: string | null;
            /** @description error_detail.error_code. */
            error_code?: string | null;
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            name: string;
            description?: string | null;
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed" | "canceled";
            is_terminal: boolean;
            /** @description True when failed or canceled. */
            is_failed: boolean;
            options?: Record<string, never>;
            /** @description {parameter_values} once completed. */
            result?: Record<string, never> | null;
            error_detail?: components["schemas"]["PipelineErrorDetail"];
            workflow_id?: string;
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            started_at?: string | null;
            /** Format: date-time */
            finished_at?: string | null;
            /** Format: date-time */
            canceled_at?: string | null;
        };
        OptimizationCreate: {
            /** Format: uuid */
            project_id: string;
            /** @description Default "Optimization". */
            name?: components["schemas"]["Name"];
            description?: string | null;
            /**
             * Format: uuid
             * @description A parameterized model of the project: the fit's (or design's) model with its parameter values (the fitted or searched parameters start from their initial values). The config then gives no model (422 otherwise).
             */
            parameterized_model_id?: string | null;
            /** @description The fit: an ionworks-schema DataFit as the client serializes it (iws.DataFit(...).to_config(), element_type data_fit implied), or the engine's data_fit or array_data_fit element; the fields and limits are those of a pipeline element (PipelineElementInput). With type "design": a design optimization (DesignOptimizationConfig). */
            config: {
                /** @enum {string} */
                element_type?: "data_fit" | "array_data_fit";
            };
        };
        /** @description Searches the model's parameters, within their bounds, for the design with the best value of one simulated metric. Each evaluation simulates the protocol with the candidate values; a design the solver fails on, or one breaking a constraint, is infeasible (the search steps away from it). */
        DesignOptimizationConfig: {
            /** @constant */
            type: "design";
            /** @description The model, in any form a simulation's parameterized_model takes (a parameterized model id, a quick_model, a model_id with parameters, ...); or give parameterized_model_id instead. */
            model?: unknown;
            /** @description The protocol every design is simulated with, in any form a simulation takes (UCP or experiment text). */
            protocol: unknown;
            /** @description The design parameters (names of the model's parameters), each with a start value and bounds. */
            parameters: {
                [key: string]: {
                    /** @description Start value, within the bounds. */
                    initial: number;
                    /** @description [lower, upper], lower < upper. */
                    bounds: number[];
                    /**
                     * @description log: searched log-uniformly (positive bounds).
                     * @enum {string}
                     */
                    scale?: "linear" | "log";
                };
            };
            objective: {
                metric: components["schemas"]["DesignMetric"];
                /**
                 * @default maximize
                 * @enum {string}
                 */
                aim: "maximize" | "minimize";
            };
            /** @description A design is feasible only if each metric lies within its min and max. */
            constraints?: {
                metric: components["schemas"]["DesignMetric"];
                min?: number;
                max?: number;
            }[];
            /** @description The search (default Nelder-Mead, 200 iterations). */
            optimizer?: {
                /** @enum {string} */
                method?: "L-BFGS-B" | "Nelder-Mead" | "Powell" | "TNC" | "SLSQP" | "differential_evolution";
                max_iterations?: number;
                max_evaluations?: number;
                tolerance?: number;
            };
        };
        /**
         * @description A simulated metric of the whole protocol (energy [W.h] is the discharge energy).
         * @enum {string}
         */
        DesignMetric: "discharge capacity [A.h]" | "charge capacity [A.h]" | "energy [W.h]" | "discharge energy [W.h]" | "charge energy [W.h]" | "duration [s]" | "minimum voltage [V]" | "maximum voltage [V]";
        Optimization: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id?: string;
            /** Format: uuid */
            project_id: string;
            name: string;
            description?: string | null;
            /**
             * Format: uuid
             * @description The fit's job: GET /jobs/{job_id}, its metadata and series.
             */
            job_id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed" | "canceled";
            /** @description The fit as the engine stores and runs it. */
            config?: Record<string, never>;
            /** Format: uuid */
            parameterized_model_id?: string | null;
            /** @description The fitted parameters. */
            parameter_names?: string[];
            /** @description The fitted values, once succeeded. */
            parameter_values?: Record<string, never> | null;
            /** @description Once succeeded: cost (the objective at the fitted values; for a design, the metric, negated when maximized), cost_name, summary_stats, counts; a design also its objective_value, metric, aim, the best design's simulated metrics (simulation) and failed_evaluations (infeasible designs). */
            metrics?: {
                cost?: number | null;
                cost_name?: string | null;
                summary_stats?: Record<string, never> | null;
                iterations?: number | null;
                evaluations?: number | null;
                converged?: boolean | null;
                n_points?: number | null;
                objective_value?: number | null;
                metric?: string | null;
                aim?: string | null;
                simulation?: Record<string, never> | null;
                failed_evaluations?: number | null;
            } | null;
            /** @description Once succeeded: the fit as an ionworks-schema OptimizationResult (type, x, fun, success, parameter_values, ...). */
            result?: Record<string, never> | null;
            /** @description Why it failed (exception type and diagnostic link); null unless failed or canceled. */
            error?: string | null;
            error_code?: string | null;
            error_detail?: components["schemas"]["PipelineErrorDetail"];
            /** Format: uuid */
            created_by?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            started_at?: string | null;
            /** Format: date-time */
            finished_at?: string | null;
        };
        PipelineElement: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            pipeline_id: string;
            position: number;
            name: string;
            /** @enum {string} */
            element_type: "entry" | "calculation" | "data_fit" | "array_data_fit" | "validation" | "design_optimization";
            config?: Record<string, never>;
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed" | "canceled";
            is_terminal: boolean;
            is_failed: boolean;
            /**
             * Format: uuid
             * @description The element's job (GET /jobs/{job_id}).
             */
            job_id: string;
            workflow_id?: string;
            result?: Record<string, never> | null;
            error_code?: string | null;
            error_detail?: components["schemas"]["PipelineErrorDetail"];
            /** @description Runs so far (scheduled retries add to it). */
            attempts: number;
            attempt_log?: {
                attempt?: number;
                started_at?: string;
                finished_at?: string;
                status?: string;
                error_code?: string;
                diagnostic_event_id?: string;
            }[];
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
            /** Format: date-time */
            started_at?: string | null;
            /** Format: date-time */
            finished_at?: string | null;
        };
        /** @description No pipeline_id (the Python client adds the id it asked for; a second one breaks its PipelineResponse). result is {} until the pipeline completes. */
        PipelineResult: {
            status: string;
            result: Record<string, never>;
            /** @description Completed element name → its result, with the ionworks-schema result type the Python client decodes it as: type OptimizationResult (a fit: also x, the fitted values in the order of its parameters, fun, its cost, and success), ValidationResult (also validation_results, {objective: {summary_stats, n_points, coverage}}) or PassthroughResult (entries, calculations). */
            element_results: {
                [key: string]: Record<string, never>;
            };
        };
        /**
         * @description The model to fit, as a data_fit element takes it: a built-in PyBaMM model
         *     ({"type": "SPM" | "SPMe" | "DFN" | "ECM", "options"?, "parameter_set"?, "parameters"?}) or the
         *     quick equivalent-circuit model ({"kind": "quick", "capacity", "chemistry"}). The Python
         *     worker checks it when the fit runs (a bad model fails the pipeline with CONFIGURATION_ERROR).
         */
        FitModel: Record<string, never>;
        /**
         * @description Fitted parameter (PyBaMM name) → {"bounds": [lo, hi], "initial_value", "scale"?}: lo < hi,
         *     initial_value within the bounds, scale "linear" (default) or "log" (searched
         *     log-uniformly; needs lo > 0). Each entry is checked by the simple pipelines' rules, so an
         *     error names the parameter exactly (["body", "parameters", <name>, "bounds"]).
         * @example {
         *       "R0 [Ohm]": {
         *         "bounds": [
         *           0.001,
         *           0.1
         *         ],
         *         "initial_value": 0.05
         *       }
         *     }
         */
        FitParameters: {
            [key: string]: unknown;
        };
        /** @description PyBaMM parameter name → number, held fixed during the fit (over the model's own values). */
        FitFixedParameters: Record<string, never>;
        /** @description A protocol (as in simulations) to drive the model instead of the measured current. */
        FitProtocol: Record<string, never>;
        /** @description The optimizer; every field is optional. */
        FitOptimizer: {
            /**
             * @description least_squares needs cost RMSE or SSE.
             * @default Nelder-Mead
             * @enum {string}
             */
            method: "L-BFGS-B" | "Nelder-Mead" | "Powell" | "TNC" | "SLSQP" | "least_squares" | "differential_evolution";
            /** @default 200 */
            max_iterations: number;
            max_evaluations?: number;
            tolerance?: number;
        };
        FitFromMeasurementsCreate: {
            /** Format: uuid */
            project_id: string;
            name: components["schemas"]["Name"];
            description?: string | null;
            /**
             * @description Exactly one cell measurement id of the caller's organization (a ready time series).
             *     Several would need an array_data_fit, which keys each data set by a number: the value
             *     of its independent_variable (a model parameter such as "Ambient temperature [K]") the
             *     data set was measured at. A measurement carries no such value, so there is no natural
             *     key; fit several data sets with POST /simple_pipelines and an array_data_fit element.
             */
            measurement_ids: string[];
            model: components["schemas"]["FitModel"];
            parameters: components["schemas"]["FitParameters"];
            /**
             * @default RMSE
             * @enum {string}
             */
            cost: "RMSE" | "MAE" | "Max" | "SSE";
            fixed_parameters?: components["schemas"]["FitFixedParameters"];
            protocol?: components["schemas"]["FitProtocol"];
            /** @description The model variable fitted to the data column of that name (default "Voltage [V]"). */
            target?: string;
            optimizer?: components["schemas"]["FitOptimizer"];
            /** @description [start_s, end_s]: the rows of the measurement the fit uses; needed for a measurement of more than FIT_MAX_ROWS rows (20,000 by default). */
            time_range?: number[];
        };
        /** @description Form fields; model, parameters, fixed_parameters, protocol and optimizer hold JSON. */
        FitFromFileCreate: {
            /** Format: uuid */
            project_id: string;
            name: components["schemas"]["Name"];
            description?: string;
            /**
             * Format: binary
             * @description CSV with a header row, or Parquet: "Time [s]", "Current [A]" (unless a protocol is given), the target ("Voltage [V]" by default); at most 1,000 data rows.
             */
            file: string;
            model: components["schemas"]["FitModel"];
            parameters: components["schemas"]["FitParameters"];
            /**
             * @default RMSE
             * @enum {string}
             */
            cost: "RMSE" | "MAE" | "Max" | "SSE";
            fixed_parameters?: components["schemas"]["FitFixedParameters"];
            protocol?: components["schemas"]["FitProtocol"];
            /** @description The model variable fitted to the file's column of that name (default "Voltage [V]"). */
            target?: string;
            optimizer?: components["schemas"]["FitOptimizer"];
        };
        AnalysisColumn: {
            name: string;
            unit?: string;
            dtype?: string | null;
        };
        DiagnosticEvent: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id?: string;
            /** Format: uuid */
            project_id?: string | null;
            source_type?: string;
            /** Format: uuid */
            source_id?: string;
            exception_type: string;
            error_code?: string | null;
            message: string;
            stack_trace?: string | null;
            context?: Record<string, never>;
            /** Format: date-time */
            created_at: string;
        };
        /** @enum {string} */
        PlannedMeasurementStatus: "requested" | "scheduled" | "in_progress" | "completed" | "cancelled";
        PlannedMeasurement: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            name: string;
            status: components["schemas"]["PlannedMeasurementStatus"];
            /**
             * Format: uuid
             * @description The experiment template to run.
             */
            protocol_id: string | null;
            /** Format: uuid */
            cell_specification_id: string | null;
            /** Format: uuid */
            cell_instance_id: string | null;
            /**
             * Format: uuid
             * @description The reserved channel once scheduled.
             */
            channel_id: string | null;
            channel_name: string | null;
            /** Format: uuid */
            cycler_id: string | null;
            cycler_name: string | null;
            /** Format: date-time */
            planned_start_time: string | null;
            /**
             * Format: date-time
             * @description The reservation is [planned_start_time, planned_end_time).
             */
            planned_end_time: string | null;
            estimated_duration_seconds: number | null;
            setup_duration_seconds: number | null;
            teardown_duration_seconds: number | null;
            test_setup: Record<string, never> | null;
            notes: string | null;
            requested_by_email: string | null;
            scheduled_by_email: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        PlannedMeasurementCreate: {
            name: components["schemas"]["Name"];
            /**
             * @description requested (default) needs estimated_duration_seconds; scheduled needs channel_id and the window.
             * @enum {string}
             */
            status?: "requested" | "scheduled";
            /** Format: uuid */
            protocol_id: string;
            /** Format: uuid */
            cell_specification_id: string;
            /** Format: uuid */
            cell_instance_id?: string | null;
            /** Format: uuid */
            channel_id?: string | null;
            /** Format: date-time */
            planned_start_time?: string | null;
            /** Format: date-time */
            planned_end_time?: string | null;
            estimated_duration_seconds?: number | null;
            setup_duration_seconds?: number | null;
            teardown_duration_seconds?: number | null;
            test_setup?: Record<string, never> | null;
            notes?: components["schemas"]["NullableText"];
        };
        PlannedMeasurementUpdate: {
            name?: components["schemas"]["Name"];
            status?: components["schemas"]["PlannedMeasurementStatus"];
            /** Format: uuid */
            protocol_id?: string;
            /** Format: uuid */
            cell_specification_id?: string;
            /** Format: uuid */
            cell_instance_id?: string | null;
            /** Format: uuid */
            channel_id?: string | null;
            /** Format: date-time */
            planned_start_time?: string | null;
            /** Format: date-time */
            planned_end_time?: string | null;
            estimated_duration_seconds?: number | null;
            setup_duration_seconds?: number | null;
            teardown_duration_seconds?: number | null;
            test_setup?: Record<string, never> | null;
            notes?: components["schemas"]["NullableText"];
        };
        AutoScheduleAssignment: {
            /** Format: uuid */
            planned_measurement_id: string;
            planned_measurement_name: string;
            /**
             * Format: date-time
             * @description The plan's version the proposal was made from.
             */
            planned_measurement_updated_at: string;
            /** Format: uuid */
            channel_id: string | null;
            channel_name: string | null;
            cycler_name: string | null;
            /** Format: date-time */
            planned_start_time: string | null;
            /** Format: date-time */
            planned_end_time: string | null;
            unscheduled_reason: string | null;
        };
        AutoScheduleProposal: {
            /** Format: date-time */
            generated_at: string;
            assignments: components["schemas"]["AutoScheduleAssignment"][];
        };
        RawDataUploadFields: {
            /** Format: uuid */
            project_id: string;
            name?: components["schemas"]["Name"];
            /** @description A plain file name: no path separators or control characters. */
            filename: string;
            /** @description Defaults to application/octet-stream. */
            content_type?: string;
            /** @description Free-text provenance (a URL, DOI, cycler export description). */
            source?: string | null;
            metadata?: Record<string, never>;
        };
        /** @description The fields of initiate-upload again (the client sends the same ones), with the size it uploaded. */
        RawDataConfirmRequest: {
            /** Format: uuid */
            project_id: string;
            name?: components["schemas"]["Name"];
            filename: string;
            content_type?: string;
            source?: string | null;
            metadata?: Record<string, never>;
            /** @description When given, must be the stored object's size. */
            size_bytes?: number;
        };
        InitiateRawDataUploadResponse: {
            /** Format: uuid */
            raw_data_id: string;
            uploads: components["schemas"]["UploadInfo"][];
        };
        RawData: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            name: string;
            filename: string;
            content_type: string;
            source: string | null;
            metadata: Record<string, never>;
            size_bytes: number;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        RawDataUpdate: {
            name?: components["schemas"]["Name"];
            source?: string | null;
            metadata?: Record<string, never>;
        };
        RawDataAttachRequest: {
            raw_data_ids: string[];
        };
        MeasurementRawDataLinks: {
            /** Format: uuid */
            cell_measurement_id: string;
            raw_data_ids: string[];
        };
        SignedDownloadUrl: {
            url: string;
            /** Format: date-time */
            expires_at: string;
        };
        Material: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description anode, cathode, electrolyte or separator for the catalogue. */
            category: string | null;
            manufacturer: string | null;
            product_id: string | null;
            description: string | null;
            /**
             * Format: uuid
             * @description Null for the system catalogue.
             */
            organization_id: string | null;
            /** Format: uuid */
            project_id: string | null;
            /** @description Part of the system catalogue every organization reads. */
            system: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        MaterialColumnSpec: {
            name: string;
            /** @default  */
            unit: string;
            source_column_index: number;
        };
        MaterialPropertyDataset: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            material_id: string;
            name: string;
            columns: components["schemas"]["MaterialColumnSpec"][];
            /** @description 1 at creation */
            data_version: number;
            /** @description Missing or NaN values per column. */
            nan_counts: {
                [key: string]: number;
            };
            row_count: number;
            size_bytes: number;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description Form fields; columns holds JSON (a list of MaterialColumnSpec). */
        MaterialPropertyDatasetCreate: {
            /** Format: uuid */
            material_id: string;
            /** Format: uuid */
            project_id: string;
            name: components["schemas"]["Name"];
            columns?: string;
            /**
             * Format: binary
             * @description Parquet, at most 100,000 rows.
             */
            file: string;
        };
        /** @description Form fields; columns holds JSON (a list of MaterialColumnSpec). */
        MaterialPropertyDatasetFile: {
            name?: components["schemas"]["Name"];
            columns?: string;
            /**
             * Format: binary
             * @description Parquet, at most 100,000 rows.
             */
            file: string;
        };
        MaterialPropertyDatasetUpdate: {
            name?: components["schemas"]["Name"];
            columns?: components["schemas"]["MaterialColumnSpec"][];
        };
        AnalysisColumnSpec: {
            name: string;
            unit?: string;
            dtype?: string | null;
        };
        /** @description A plot preset: x, and at least one y or y2 column (directly or in rows). */
        AnalysisPlot: {
            x: string;
            y?: string[];
            y2?: string[];
            rows?: {
                y?: string[];
                y2?: string[];
            }[];
            group_by?: string | null;
            title?: string | null;
        };
        Analysis: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** Format: uuid */
            project_id: string;
            /** Format: uuid */
            measurement_id: string;
            name: string;
            analysis_type: string;
            columns: components["schemas"]["AnalysisColumnSpec"][];
            plots: Record<string, never>[];
            metadata: Record<string, never>;
            notes: string | null;
            row_count: number;
            size_bytes: number;
            /** Format: uuid */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description Form fields; columns, plots and metadata hold JSON. */
        AnalysisCreate: {
            /** Format: uuid */
            measurement_id: string;
            name: components["schemas"]["Name"];
            analysis_type: string;
            columns?: string;
            plots?: string;
            metadata?: string;
            notes?: string;
            /**
             * Format: binary
             * @description Parquet, at most 100,000 rows.
             */
            file: string;
        };
        AnalysisUpdate: {
            name?: components["schemas"]["Name"];
            analysis_type?: string;
            columns?: components["schemas"]["AnalysisColumnSpec"][];
            plots?: components["schemas"]["AnalysisPlot"][];
            metadata?: Record<string, never>;
            notes?: string | null;
        };
    };
    responses: {
        /** @description Missing, invalid or revoked API key. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Another organization's key, header or resource, or a missing permission. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such resource. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The change conflicts with the current state (duplicate names carry detail.existing_id). */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body (counted after decompression), a file or a part of a multipart body is larger than allowed, or a multipart body has too many parts; error_code PAYLOAD_TOO_LARGE, detail.limit. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is missing, is not of a content type the operation takes, or has a Content-Encoding other than gzip; error_code UNSUPPORTED_MEDIA_TYPE. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Invalid input; each item names the field at fault. */
        ValidationError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["HTTPValidationError"];
            };
        };
        /** @description Deleted. */
        Deleted: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    id: string;
                    deleted: boolean;
                };
            };
        };
    };
    parameters: {
        /**
         * @description Optional. A submission sent again with the same key by the same user (after its answer
         *     was lost) is answered the batch the first one made, and starts and counts nothing; the
         *     same key with another request is 409. A key lives as long as its batch.
         */
        IdempotencyKey: string;
        ProjectId: string;
        /** @description Page size, 1 to 100. */
        Limit: number;
        /** @description Items to skip, at least 0. */
        Offset: number;
        /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
        Order: "asc" | "desc";
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description A dependency is down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    authHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's identity. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                        /** Format: uuid */
                        user_id: string;
                        email: string;
                        /** Format: uuid */
                        organization_id: string;
                        organization_name: string;
                        api_key_prefix: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    usersMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        email: string;
                        authorized_organization: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                        };
                        organizations: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listProjectRoles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every project role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string;
                        permissions: string[];
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listProjects: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                description?: components["schemas"]["FilterText"];
                created_by?: string;
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of projects. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Project"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: components["schemas"]["Name"];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The project, with its cell specifications and members' roles. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: components["schemas"]["Name"];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The project, with created_by and user_project_roles. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    addProjectMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    user_id: string;
                    /** Format: uuid */
                    project_role_id: string;
                };
            };
        };
        responses: {
            /** @description The member's role. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserProjectRole"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    removeProjectMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        project_id: string;
                        /** Format: uuid */
                        user_id: string;
                        deleted: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    changeProjectMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    project_role_id: string;
                };
            };
        };
        responses: {
            /** @description The member's new role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserProjectRole"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listSites: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "location" | "created_by_email" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                location?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                created_by?: string;
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sites. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Site"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createSite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SiteCreate"];
            };
        };
        responses: {
            /** @description The site. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getSite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The site. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteSite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateSite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SiteUpdate"];
            };
        };
        responses: {
            /** @description The site. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listSiteCyclers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000. */
                limit?: number;
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "manufacturer" | "model" | "version" | "serial_number" | "firmware_version" | "hostname" | "last_calibrated_at" | "calibration_due_at" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                manufacturer?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                model?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                version?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                serial_number?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                firmware_version?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                hostname?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                ip_address?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                project_id?: string;
                created_by?: string;
                /** @description eq.N, gte.N, lte.N */
                port?: components["schemas"]["FilterNumber"];
                /** @description eq.N, gte.N, lte.N */
                calibration_interval_days?: components["schemas"]["FilterNumber"];
                /** @description gte.<iso> or lte.<iso> */
                last_calibrated_at?: components["schemas"]["FilterDate"];
                last_calibrated_at_gt?: components["schemas"]["DateBound"];
                last_calibrated_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                calibration_due_at?: components["schemas"]["FilterDate"];
                calibration_due_at_gt?: components["schemas"]["DateBound"];
                calibration_due_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
                /** @description Substring of the name, or every word as a prefix of the name or details (the search matcher). */
                q?: string;
            };
            header?: never;
            path: {
                site_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cyclers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Cycler"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createCycler: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CyclerCreate"];
            };
        };
        responses: {
            /** @description The cycler. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cycler"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listCyclers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000. */
                limit?: number;
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "manufacturer" | "model" | "version" | "serial_number" | "firmware_version" | "hostname" | "last_calibrated_at" | "calibration_due_at" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                manufacturer?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                model?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                version?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                serial_number?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                firmware_version?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                hostname?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                ip_address?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                site_id?: string;
                project_id?: string;
                created_by?: string;
                /** @description eq.N, gte.N, lte.N */
                port?: components["schemas"]["FilterNumber"];
                /** @description eq.N, gte.N, lte.N */
                calibration_interval_days?: components["schemas"]["FilterNumber"];
                /** @description gte.<iso> or lte.<iso> */
                last_calibrated_at?: components["schemas"]["FilterDate"];
                last_calibrated_at_gt?: components["schemas"]["DateBound"];
                last_calibrated_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                calibration_due_at?: components["schemas"]["FilterDate"];
                calibration_due_at_gt?: components["schemas"]["DateBound"];
                calibration_due_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
                /** @description Substring of the name, or every word as a prefix of the name or details (the search matcher). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cyclers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Cycler"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    getCycler: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cycler. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cycler"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteCycler: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateCycler: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CyclerUpdate"];
            };
        };
        responses: {
            /** @description The cycler. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cycler"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listCyclerServiceEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "started_at" | "completed_at" | "created_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X or in.(a,b) */
                event_type?: components["schemas"]["FilterServiceEventType"];
                /** @description eq.X or in.(a,b) */
                status?: components["schemas"]["FilterServiceEventStatus"];
                /** @description gte.<iso> or lte.<iso> */
                started_at?: components["schemas"]["FilterDate"];
                started_at_gt?: components["schemas"]["DateBound"];
                started_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                completed_at?: components["schemas"]["FilterDate"];
                completed_at_gt?: components["schemas"]["DateBound"];
                completed_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of service events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["CyclerServiceEvent"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    openCyclerServiceEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceEventOpen"];
            };
        };
        responses: {
            /** @description The open event. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CyclerServiceEvent"];
                };
            };
            /** @description scheduled_until not after scheduled_for. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    completeCyclerServiceEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceEventComplete"];
            };
        };
        responses: {
            /** @description The completed event with the cycler. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompletedServiceEvent"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listCyclerChannels: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "max_amps" | "min_volts" | "max_volts" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                project_id?: string;
                /** @description eq.N, gte.N, lte.N */
                max_amps?: components["schemas"]["FilterNumber"];
                /** @description eq.N, gte.N, lte.N */
                min_volts?: components["schemas"]["FilterNumber"];
                /** @description eq.N, gte.N, lte.N */
                max_volts?: components["schemas"]["FilterNumber"];
                /** @description eq.true or eq.false */
                out_of_commission?: components["schemas"]["FilterBoolean"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Channel"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cycler_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelCreate"];
            };
        };
        responses: {
            /** @description The created channel. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description Bad request (the message names the field). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listChannels: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "max_amps" | "min_volts" | "max_volts" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                project_id?: string;
                /** @description eq.N, gte.N, lte.N */
                max_amps?: components["schemas"]["FilterNumber"];
                /** @description eq.N, gte.N, lte.N */
                min_volts?: components["schemas"]["FilterNumber"];
                /** @description eq.N, gte.N, lte.N */
                max_volts?: components["schemas"]["FilterNumber"];
                /** @description eq.true or eq.false */
                out_of_commission?: components["schemas"]["FilterBoolean"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
                cycler_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Channel"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    getChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channel_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channel_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                channel_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelUpdate"];
            };
        };
        responses: {
            /** @description The channel. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            /** @description service_scheduled_until not after service_scheduled_at (or without one); out of commission for maintenance or calibration without service_scheduled_at. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listChannelIncidents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "created_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X or in.(a,b) */
                incident_category?: components["schemas"]["FilterIncidentCategory"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                channel_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of incidents. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["ChannelIncident"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listCellSpecifications: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000. */
                limit?: number;
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                /** @description Accepted for the Python client (include_components): the answer always carries the components. */
                full?: "true" | "false";
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                order_by?: "name" | "manufacturer" | "form_factor" | "chemistry" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                description?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                manufacturer?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                form_factor?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                chemistry?: components["schemas"]["FilterText"];
                project_id?: string;
                created_by?: string;
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cell specifications. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["CellSpecification"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createCellSpecification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CellSpecificationCreate"];
            };
        };
        responses: {
            /** @description The cell specification. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellSpecification"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getCellSpecification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cell specification. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellSpecification"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteCellSpecification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateCellSpecification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CellSpecificationUpdate"];
            };
        };
        responses: {
            /** @description The cell specification. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellSpecification"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listCellBatches: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of batches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["CellBatch"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createCellBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CellBatchCreate"];
            };
        };
        responses: {
            /** @description The cell batch. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellBatch"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getCellBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cell batch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellBatch"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteCellBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateCellBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CellBatchUpdate"];
            };
        };
        responses: {
            /** @description The cell batch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellBatch"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listCellInstances: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000. */
                limit?: number;
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                batch_id?: string;
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                order_by?: "name" | "serial_number" | "batch" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                serial_number?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                batch?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                created_by?: string;
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cell instances. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["CellInstance"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createCellInstance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CellInstanceCreate"];
            };
        };
        responses: {
            /** @description The cell instance. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellInstance"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getCellInstance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cell instance. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellInstance"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteCellInstance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateCellInstance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CellInstanceUpdate"];
            };
        };
        responses: {
            /** @description The cell instance. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellInstance"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listCellMeasurements: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000. */
                limit?: number;
                /** @description Repeated: only measurements carrying every one of these tags (case-insensitive). */
                tags_all?: string[];
                /** @description Repeated: only measurements carrying at least one of these tags (case-insensitive). */
                tags_any?: string[];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "start_time" | "end_time" | "estimated_end_time" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                protocol?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                program_name?: components["schemas"]["FilterText"];
                channel_id?: string;
                requested_by?: string;
                /** @description eq.X or in.(a,b) */
                measurement_type?: components["schemas"]["FilterMeasurementType"];
                /** @description eq.X or in.(a,b) */
                processing_status?: components["schemas"]["FilterProcessingStatus"];
                /** @description gte.<iso> or lte.<iso> */
                start_time?: components["schemas"]["FilterDate"];
                start_time_gt?: components["schemas"]["DateBound"];
                start_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                end_time?: components["schemas"]["FilterDate"];
                end_time_gt?: components["schemas"]["DateBound"];
                end_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                estimated_end_time?: components["schemas"]["FilterDate"];
                estimated_end_time_gt?: components["schemas"]["DateBound"];
                estimated_end_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of measurements. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["CellMeasurement"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createPropertiesMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                instance_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PropertiesMeasurementCreate"];
            };
        };
        responses: {
            /** @description The measurement. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellMeasurement"];
                };
            };
            /** @description Bad request (the message names the field). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listProjectMeasurements: {
        parameters: {
            query: {
                project_id: string;
                q?: string;
                /** @description Page size, 1 to 1000. */
                limit?: number;
                /** @description Repeated: only measurements carrying every one of these tags (case-insensitive). */
                tags_all?: string[];
                /** @description Repeated: only measurements carrying at least one of these tags (case-insensitive). */
                tags_any?: string[];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "start_time" | "end_time" | "estimated_end_time" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                protocol?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                program_name?: components["schemas"]["FilterText"];
                channel_id?: string;
                requested_by?: string;
                /** @description eq.X or in.(a,b) */
                measurement_type?: components["schemas"]["FilterMeasurementType"];
                /** @description eq.X or in.(a,b) */
                processing_status?: components["schemas"]["FilterProcessingStatus"];
                /** @description gte.<iso> or lte.<iso> */
                start_time?: components["schemas"]["FilterDate"];
                start_time_gt?: components["schemas"]["DateBound"];
                start_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                end_time?: components["schemas"]["FilterDate"];
                end_time_gt?: components["schemas"]["DateBound"];
                end_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                estimated_end_time?: components["schemas"]["FilterDate"];
                estimated_end_time_gt?: components["schemas"]["DateBound"];
                estimated_end_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of measurements. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["CellMeasurement"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listMeasurementTags: {
        parameters: {
            query: {
                project_id: string;
                /** @description Case-insensitive substring the tag must contain. */
                q?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of tags. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["MeasurementTagUsage"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    bulkMeasurementTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    measurement_ids: string[];
                    add?: components["schemas"]["MeasurementTags"];
                    remove?: components["schemas"]["MeasurementTags"];
                };
            };
        };
        responses: {
            /** @description How many measurements changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        updated_count: number;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getCellMeasurement: {
        parameters: {
            query?: {
                /** @description Accepted for clients that poll with it; the record never embeds steps. */
                include_steps?: "true" | "false" | "True" | "False" | "TRUE" | "FALSE" | "1" | "0";
                /** @description Accepted for clients that poll with it; the record never embeds data. */
                include_time_series?: "true" | "false" | "True" | "False" | "TRUE" | "FALSE" | "1" | "0";
            };
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The measurement. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellMeasurement"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteCellMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateCellMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CellMeasurementUpdate"];
            };
        };
        responses: {
            /** @description The measurement. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CellMeasurement"];
                };
            };
            /** @description Bad request (the message names the field). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    watchCellMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Watched. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchState"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    unwatchCellMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Not watched. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchState"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    labStatus: {
        parameters: {
            query?: {
                /** @description summary: every site and cycler with the counts, each cycler's channels left out (channels is empty); a cheap first look at a large lab. grid: the whole lab as the board draws it (LabStatusGrid): per cycler, its channels as columns of id, name, state and flags, without the measurements' details. */
                view?: "full" | "summary" | "grid";
                /** @description A page of the cyclers in the tree's order (site name, cycler name), with their channels; the counts are over the page. Not with view=summary or view=grid (400). */
                cycler_offset?: number;
                /** @description Cyclers on the page (default 100 when cycler_offset is sent). */
                cycler_limit?: number;
            };
            header?: {
                /** @description The ETag of a status already held: 304 when it is still current. */
                "If-None-Match"?: string;
            };
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lab status tree (LabStatusGrid with view=grid). */
            200: {
                headers: {
                    /** @description Weak tag of this status (project version, minute, staleness window, caller). */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabStatus"] | components["schemas"]["LabStatusGrid"];
                };
            };
            /** @description Not modified since the ETag sent in If-None-Match (no body; the tree is not built). Each view and page has its own ETag. */
            304: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description view=summary or view=grid with cycler_offset or cycler_limit. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    labWatched: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Watched measurement ids. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        measurement_ids: string[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    search: {
        parameters: {
            query?: {
                /** @description At least 2 characters (shorter is 422, blank is 400). */
                q?: string;
                /** @description 1 to 100, default 25. */
                limit?: number;
                /** @description At least 0. */
                offset?: number;
                /** @description Most results per entity type, 1 to 100, default 5. */
                per_type?: number;
                /** @description Entity types to search (repeat the key or separate with commas); all when absent. */
                entity_types?: string[];
                /** @description Only this project. */
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of ranked results. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResults"];
                };
            };
            /** @description Blank q. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    initiateMeasurementUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cell_instance_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InitiateUploadRequest"];
            };
        };
        responses: {
            /** @description The upload targets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InitiateUploadResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    confirmMeasurementUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfirmUploadRequest"];
            };
        };
        responses: {
            /** @description Already confirmed; the record as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeasurementDataRecord"];
                };
            };
            /** @description The record, processing pending. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeasurementDataRecord"];
                };
            };
            /** @description The channel belongs to another project (detail.field, detail.loc). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description The measurement was confirmed and has since been deleted. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An uploaded object is larger than its target allows (it is discarded). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    initiateMeasurementExtend: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload target. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InitiateUploadResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    confirmMeasurementExtend: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    validation?: components["schemas"]["MeasurementValidationOptions"];
                };
            };
        };
        responses: {
            /** @description The record, processing pending (or as it is, when confirmed before). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeasurementDataRecord"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            /** @description The uploaded delta is larger than its target allows (it is discarded). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getMeasurementValidation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeasurementValidationReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    downloadMeasurementTimeSeries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to a signed GET of the object. */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Still processing, failed processing, or not this kind of data (detail.processing_status). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
        };
    };
    downloadMeasurementSteps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to a signed GET of the object. */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Still processing, failed processing, or not this kind of data (detail.processing_status). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
        };
    };
    getMeasurementTimeSeries: {
        parameters: {
            query?: {
                /** @description Column names, comma-separated or with the key repeated (`columns=a&columns=b`); all stored columns by default. */
                columns?: string[];
                /** @description At most this many rows (3 to 1,000,000, default 5000); fewer rows are returned as stored. The rows answered times the columns asked for may be at most 1,000,000 (422 at max_points otherwise; the download has the whole series). */
                max_points?: number;
            };
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The columns. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        measurement_id: string;
                        /** @description Rows stored. */
                        row_count: number;
                        /** @description Rows returned. */
                        point_count: number;
                        downsampled: boolean;
                        /** @enum {string} */
                        method: "lttb" | "none";
                        columns: components["schemas"]["ColumnTable"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Still processing, failed processing, or not this kind of data (detail.processing_status). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
        };
    };
    getMeasurementStepsAndCycles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Both tables (cycles never null). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        steps: components["schemas"]["ColumnTable"];
                        cycles: components["schemas"]["ColumnTable"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Still processing, failed processing, or not this kind of data (detail.processing_status). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
        };
    };
    getMeasurementCycles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cycles table. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cycles: components["schemas"]["ColumnTable"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Still processing, failed processing, or not this kind of data (detail.processing_status). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
        };
    };
    listMeasurementFiles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The filenames. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        filenames: string[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Still processing, failed processing, or not this kind of data (detail.processing_status). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
        };
    };
    downloadMeasurementFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
                filename: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to a signed GET of the object. */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Still processing, failed processing, or not this kind of data (detail.processing_status). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            422: components["responses"]["ValidationError"];
        };
    };
    listModels: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                name?: components["schemas"]["FilterText"];
                description?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                chemistry?: components["schemas"]["FilterText"];
                /** @description eq.true or eq.false */
                is_custom_model?: components["schemas"]["FilterBoolean"];
                user_id?: string;
                /** @description A project the caller reads (the Python client always sends one); models belong to the organization, so it does not narrow the list. */
                project_id?: string;
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of models. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Model"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: components["schemas"]["Name"];
                    description?: string | null;
                    /** @enum {string} */
                    chemistry?: "lithium_ion" | "lithium_sulfur" | "ecm" | "generic";
                    config: components["schemas"]["PybammModelConfig"];
                    /** @description The Python client's place for config.simulation_settings (give it in one of the two). */
                    simulation_settings?: components["schemas"]["SimulationSettings"];
                    /** @description Refused (422) unless it is the PyBaMM version this Cellar simulates with (the model's simulator_version). */
                    pybamm_version?: string;
                    /**
                     * Format: uuid
                     * @description A project the caller reads; models belong to the organization.
                     */
                    project_id?: string;
                };
            };
        };
        responses: {
            /** @description The model. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Model"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadCustomModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    name: string;
                    /**
                     * @default lithium_ion
                     * @enum {string}
                     */
                    chemistry?: "lithium_ion" | "lithium_sulfur" | "ecm" | "generic";
                    description?: string;
                    /**
                     * Format: binary
                     * @description JSON: {"type": "SPM"|"SPMe"|"DFN"|"ECM", "options", "parameter_set", "parameters", "simulation_settings"}
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description The model. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Model"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Model"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: components["schemas"]["Name"];
                    description?: string | null;
                    /** @description Refused (422) unless it is the model's simulator_version. */
                    pybamm_version?: string;
                };
            };
        };
        responses: {
            /** @description The model. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Model"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    addModelCustomVariable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomVariable"];
            };
        };
        responses: {
            /** @description The model, its config listing the custom variables. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Model"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker did not answer; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listModelBuilders: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                project_id?: string;
                model_id?: string;
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of model builders. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["ModelBuilder"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createModelBuilder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    model_id: string;
                    /** Format: uuid */
                    project_id: string;
                    name: components["schemas"]["Name"];
                    description?: string | null;
                    config: components["schemas"]["ModelBuilderConfig"];
                };
            };
        };
        responses: {
            /** @description The model builder. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelBuilder"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    dryRunModelBuilder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    model_id: string;
                    /** Format: uuid */
                    cell_spec_id: string;
                    config: components["schemas"]["ModelBuilderConfig"];
                };
            };
        };
        responses: {
            /** @description The readiness report, the parameters (empty when not ready), the parameters the model still lacks, and why a calculation failed when one did. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        report: components["schemas"]["ReadinessReport"];
                        parameters: {
                            [key: string]: number;
                        };
                        missing: string[];
                        error: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker did not answer; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewModelBuilderMapping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    cell_spec_id: string;
                    mapping: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Parameter name → {found, converted, curve, issue}: e.g. "75.6 um", "7.56e-05 m". */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: {
                            found: string | null;
                            converted: string | null;
                            curve: Record<string, never> | null;
                            issue: string | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    calculationsProducing: {
        parameters: {
            query: {
                parameter: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Calculation elements, each with the parameters it produces and reads. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        element_type: "calculation";
                        type: string;
                        name: string;
                        produces: string[];
                        reads: string[];
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    getModelBuilder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model builder. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelBuilder"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteModelBuilder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateModelBuilder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: components["schemas"]["Name"];
                    description?: string | null;
                    config?: components["schemas"]["ModelBuilderConfig"];
                };
            };
        };
        responses: {
            /** @description The model builder. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelBuilder"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    checkModelBuilder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    cell_spec_id: string;
                };
            };
        };
        responses: {
            /** @description The readiness report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker did not answer; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    buildModelBuilder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                model_builder_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    cell_spec_id: string;
                    /** @default false */
                    save?: boolean;
                    name?: components["schemas"]["Name"];
                    description?: string | null;
                    /** @default false */
                    set_as_default?: boolean;
                };
            };
        };
        responses: {
            /** @description The parameters, those still missing, the readiness warnings, and the saved model's id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        parameters: {
                            [key: string]: number;
                        };
                        missing: string[];
                        issues: components["schemas"]["ReadinessIssue"][];
                        /** Format: uuid */
                        parameterized_model_id: string | null;
                        is_default?: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker did not answer; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getResolvedCellSpecification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The specification's fields; every leaf addressable by its dotted path. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getBuilderReadiness: {
        parameters: {
            query?: {
                model_id?: string;
            };
            header?: never;
            path: {
                spec_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per builder, newest first (at most 100). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        model_builder_id: string;
                        /** Format: uuid */
                        model_id: string;
                        name: string;
                        ready: boolean;
                        error_count: number;
                        warning_count: number;
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker did not answer; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listParameterizedModels: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                project_id?: string;
                model_id?: string;
                cell_spec_id?: string;
                name?: components["schemas"]["FilterText"];
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of parameterized models. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["ParameterizedModel"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createParameterizedModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ParameterizedModelCreate"] & Record<string, never>;
            };
        };
        responses: {
            /** @description The parameterized model. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParameterizedModel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCellParameterizedModels: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path: {
                cell_spec_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of parameterized models. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["ParameterizedModel"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createCellParameterizedModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cell_spec_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ParameterizedModelCreate"];
            };
        };
        responses: {
            /** @description The parameterized model. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParameterizedModel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getParameterizedModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The parameterized model. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParameterizedModel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteParameterizedModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateParameterizedModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ParameterizedModelUpdate"];
            };
        };
        responses: {
            /** @description The parameterized model. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParameterizedModel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCellParameterizedModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cell_spec_id: string;
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateCellParameterizedModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cell_spec_id: string;
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ParameterizedModelUpdate"];
            };
        };
        responses: {
            /** @description The parameterized model. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParameterizedModel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    parameterizedModelParameterValues: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Parameter values. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParameterValues"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    parameterizedModelVariableNames: {
        parameters: {
            query?: {
                detail?: "true" | "false";
            };
            header?: never;
            path: {
                parameterized_model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[] | components["schemas"]["VariableNamesDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validatePybammModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    pybamm_model: string;
                    /** @description PyBaMM submodule, lithium_ion by default; ignored for ECM. */
                    module?: string;
                    /** @description PyBaMM model options. */
                    options?: Record<string, never>;
                };
            };
        };
        responses: {
            /** @description The outcome. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        valid: boolean;
                        error?: string;
                        /** @enum {string} */
                        error_type?: "UnsupportedModel" | "ModelError";
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker did not answer; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    serializeIonworksModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    name: "SPM" | "SPMe" | "DFN" | "ECM";
                    /** @description PyBaMM model options. */
                    options?: Record<string, never>;
                };
            };
        };
        responses: {
            /** @description The serialised model. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        compressed: true;
                        /** @description The Serialise JSON document */
                        data: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description The simulation worker did not answer; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    discoveryPybammModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Model types. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        pybamm_models: {
                            [key: string]: string[];
                        };
                        ionworks_models: Record<string, never>;
                        options: Record<string, never>;
                        pybamm_version: string;
                        items?: {
                            type: string;
                            name: string;
                            default_parameter_set: string;
                            family?: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    discoveryChemistries: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The published chemistries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        description?: string;
                        chemistries: {
                            name: string;
                            description?: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    protocolSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schema. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    dataSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schema. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    discoveryCapabilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Capabilities. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        service?: string;
                        domain_context: Record<string, never>;
                        schemas: {
                            [key: string]: string;
                        };
                        openapi_spec: string;
                        authentication: Record<string, never>;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    validateProtocol: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    protocol: components["schemas"]["ProtocolInput"];
                };
            };
        };
        responses: {
            /** @description Whether the protocol is valid, with its canonical UCP form when it is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        valid: boolean;
                        error?: string;
                        loc?: (string | number)[];
                        /** @enum {string} */
                        format?: "ucp" | "pybamm";
                        protocol?: Record<string, never>;
                        input_references?: string[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    protocolInputReferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    protocol: components["schemas"]["ProtocolInput"];
                };
            };
        };
        responses: {
            /** @description The names, in order of first use. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    parseProtocolToTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    protocol_experiment: {
                        protocol: components["schemas"]["ProtocolInput"];
                        name: components["schemas"]["Name"];
                        additional_content_files?: Record<string, never> | null;
                        parameters_schema?: Record<string, never> | null;
                    };
                    experiment_parameters?: components["schemas"]["ParameterValues"];
                    /** Format: uuid */
                    project_id: string;
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The template id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        template_id: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listExperimentTemplates: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description Comma list (or repeated) of protocol_config, parameters_schema, source_protocol, experiment_parameters; time_series_spec, metrics_spec and plot_options (which the Python client may ask for) are not kept and answer null. */
                include?: string[];
                project_id?: string;
                name?: components["schemas"]["FilterText"];
                description?: components["schemas"]["FilterText"];
                created_by?: string;
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of templates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["ExperimentTemplate"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createExperimentTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: components["schemas"]["Name"];
                    protocol_config: components["schemas"]["ProtocolInput"];
                    /** Format: uuid */
                    project_id: string;
                    parameters_schema?: Record<string, never> | null;
                    description?: string | null;
                    /** @description The original text (default: the protocol as given). */
                    source_protocol?: string;
                    /** @default false */
                    force_create?: boolean;
                };
            };
        };
        responses: {
            /** @description The identical template already saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentTemplate"];
                };
            };
            /** @description The new template. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentTemplate"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    experimentTemplateHumanReadable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plain text. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    experimentTemplateSourceProtocol: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plain text. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getExperimentTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template with every column. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentTemplate"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteExperimentTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateExperimentTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: components["schemas"]["Name"];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentTemplate"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    submitProtocolBatch: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional. A submission sent again with the same key by the same user (after its answer
                 *     was lost) is answered the batch the first one made, and starts and counts nothing; the
                 *     same key with another request is 409. A key lives as long as its batch.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    parameterized_model: components["schemas"]["ParameterizedModelRef"];
                    protocol_experiment: {
                        protocol: components["schemas"]["ProtocolInput"];
                        name?: string;
                        additional_content_files?: Record<string, never> | null;
                        parameters_schema?: Record<string, never> | null;
                    };
                    experiment_parameters?: components["schemas"]["ParameterValues"];
                    design_parameters_doe?: components["schemas"]["DOERequest"];
                    max_backward_jumps?: number | null;
                    /** Format: uuid */
                    study_id?: string | null;
                    /** @description Model variables added as result columns, by exact name: variables of time alone (variable_names of GET /parameterized_models/{id}/variable-names); one that varies in space is refused. */
                    extra_variables?: string[] | null;
                    /** @default false */
                    force_rerun?: boolean;
                    /**
                     * Format: uuid
                     * @description Project of the simulations; else that of the study or parameterized model, else the organization.
                     */
                    project_id?: string | null;
                };
            };
        };
        responses: {
            /** @description One entry per design point. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmittedSimulation"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The Idempotency-Key was sent with another submission. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description USAGE_LIMIT_EXCEEDED; detail names limit, usage and requested. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    submitTemplateBatch: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Optional. A submission sent again with the same key by the same user (after its answer
                 *     was lost) is answered the batch the first one made, and starts and counts nothing; the
                 *     same key with another request is 409. A key lives as long as its batch.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    parameterized_model: components["schemas"]["ParameterizedModelRef"];
                    /** Format: uuid */
                    experiment_template_id: string;
                    experiment_parameter_sets?: components["schemas"]["ParameterValues"][] | null;
                    design_parameters_doe?: components["schemas"]["DOERequest"];
                    max_backward_jumps?: number | null;
                    /** Format: uuid */
                    study_id?: string | null;
                    /** @description Model variables added as result columns, by exact name: variables of time alone (variable_names of GET /parameterized_models/{id}/variable-names); one that varies in space is refused. */
                    extra_variables?: string[] | null;
                    /** @default false */
                    force_rerun?: boolean;
                    /** Format: uuid */
                    project_id: string;
                };
            };
        };
        responses: {
            /** @description One entry per design point. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmittedSimulation"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The Idempotency-Key was sent with another submission. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            /** @description USAGE_LIMIT_EXCEEDED; detail names limit, usage and requested. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The simulation worker or the workflow service is unavailable; retry shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSimulations: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000 (default 100). */
                limit?: number;
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                /** @description The Python client's filter: queued is pending; failed includes canceled. */
                state?: "queued" | "running" | "completed" | "failed";
                /** @description true leaves out each run's metrics. */
                summary?: "true" | "false";
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                parameterized_model_id?: string;
                study_id?: string;
                project_id?: string;
                batch_id?: string;
                experiment_template_id?: string;
                name?: components["schemas"]["FilterText"];
                /** @description eq.completed, in.(pending,running) */
                status?: components["schemas"]["FilterWorkStatus"];
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of simulations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Simulation"][];
                        /** @description The same items. */
                        simulations: components["schemas"]["Simulation"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    simulationStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    simulation_ids: string[];
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description One item per simulation found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        simulation_id: string;
                        /** @enum {string} */
                        status: "pending" | "running" | "completed" | "failed" | "canceled";
                        error: string | null;
                        error_code: string | null;
                        /** Format: date-time */
                        updated_at: string;
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listSimulationBatches: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                project_id?: string;
                name?: components["schemas"]["FilterText"];
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of batches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["SimulationBatch"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    getSimulationBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimulationBatch"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    cancelSimulationBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch as it stands. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimulationBatch"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getSimulation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                simulation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simulation; storage_folder is set exactly when its results are stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteSimulation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                simulation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    downloadSimulationTimeSeries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                simulation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Parquet file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.apache.parquet": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    downloadSimulationSteps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                simulation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Parquet file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.apache.parquet": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "created_at" | "updated_at" | "status" | "priority";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                project_id?: string;
                /** @description eq.running, in.(pending,running) */
                status?: components["schemas"]["FilterWorkStatus"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                job_type?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                error_code?: components["schemas"]["FilterText"];
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Jobs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createJobGone: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description Gone. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job as it stands. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    getJobMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        validation_plot_config: {
                            objectives?: {
                                [key: string]: {
                                    plot_count?: number;
                                    type?: string;
                                };
                            };
                        };
                        validation_results: {
                            [key: string]: Record<string, never>;
                        };
                        intermediate_results: Record<string, never>[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getJobSeriesChannels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The objectives, their sources and channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: {
                            [key: string]: string[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getJobSeries: {
        parameters: {
            query: {
                objective: string;
                source?: "optimal" | "baseline";
                /** @description Comma-separated channels besides x_column (default all). */
                columns?: string;
                /** @description Default Time [s]. */
                x_column?: string;
                max_points?: number;
                x_min?: number;
                x_max?: number;
            };
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The series. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: (number | null)[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listStudies: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                name?: components["schemas"]["FilterText"];
                description?: components["schemas"]["FilterText"];
                created_by?: string;
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of studies. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Study"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createStudy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: components["schemas"]["Name"];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The study. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Study"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getStudy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The study with the ids it links. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Study"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteStudy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateStudy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: components["schemas"]["Name"];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The study. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Study"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    linkStudySimulation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                simulation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudyLink"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    unlinkStudySimulation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                simulation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudyLink"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listStudyMeasurements: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000. */
                limit?: number;
                /** @description Repeated: only measurements carrying every one of these tags (case-insensitive). */
                tags_all?: string[];
                /** @description Repeated: only measurements carrying at least one of these tags (case-insensitive). */
                tags_any?: string[];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "start_time" | "end_time" | "estimated_end_time" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                protocol?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                program_name?: components["schemas"]["FilterText"];
                channel_id?: string;
                requested_by?: string;
                /** @description eq.X or in.(a,b) */
                measurement_type?: components["schemas"]["FilterMeasurementType"];
                /** @description eq.X or in.(a,b) */
                processing_status?: components["schemas"]["FilterProcessingStatus"];
                /** @description gte.<iso> or lte.<iso> */
                start_time?: components["schemas"]["FilterDate"];
                start_time_gt?: components["schemas"]["DateBound"];
                start_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                end_time?: components["schemas"]["FilterDate"];
                end_time_gt?: components["schemas"]["DateBound"];
                end_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                estimated_end_time?: components["schemas"]["FilterDate"];
                estimated_end_time_gt?: components["schemas"]["DateBound"];
                estimated_end_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                project_id: string;
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of measurements. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["CellMeasurement"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    linkStudyMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudyLink"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    unlinkStudyMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudyLink"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    inviteProjectMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** Format: uuid */
                    project_role_id: string;
                };
            };
        };
        responses: {
            /** @description The outcome. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InviteResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listOrganizations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Organizations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @enum {string} */
                        role: "Admin" | "Member";
                    }[];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listOrganizationMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationMember"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    inviteOrganizationMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /**
                     * @default Member
                     * @enum {string}
                     */
                    role_name?: "Admin" | "Member";
                };
            };
        };
        responses: {
            /** @description The outcome. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InviteResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    setOrganizationMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role_name: "Admin" | "Member";
                };
            };
        };
        responses: {
            /** @description The new role. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        user_id: string;
                        role_name: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    resendOrganizationInvite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Nothing was sent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        user_id: string;
                        invite_sent: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    removeOrganizationMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    setOrganizationMemberActive: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    is_active: boolean;
                };
            };
        };
        responses: {
            /** @description The member. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        email: string;
                        is_active: boolean;
                        organization_role: {
                            /** @enum {string} */
                            name?: "Admin" | "Member";
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    organizationUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        organization_id?: string;
                        /** Format: date */
                        period_start: string;
                        /** Format: date */
                        period_end: string;
                        simulation: {
                            /** @description Simulated hours. */
                            usage: number;
                            /** @description No limit in hours (see count_limit). */
                            limit: null;
                            /** @description Simulations submitted this month. */
                            count: number;
                            /** @description The monthly limit of simulations. */
                            count_limit: number;
                        };
                        compute: {
                            /** @description Hours. */
                            usage: number;
                            usage_by_type: {
                                [key: string]: number;
                            };
                            limit: number | null;
                            /** @enum {string} */
                            unit?: "hours";
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listSimulationBoards: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
            };
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the study's boards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["SimulationBoard"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createSimulationBoard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulationBoardCreate"];
            };
        };
        responses: {
            /** @description The board. */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimulationBoard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getSimulationBoard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                board_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The board. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimulationBoard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteSimulationBoard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                board_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateSimulationBoard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                study_id: string;
                board_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulationBoardUpdate"];
            };
        };
        responses: {
            /** @description The board. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimulationBoard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listPipelines: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000 (default 50). */
                limit?: number;
                /** @description Items to skip, at least 0. */
                skip?: number;
                order_by?: "name" | "status" | "created_at" | "updated_at" | "finished_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                project_id?: string;
                /** @description eq.X or in.(a,b) */
                status?: components["schemas"]["FilterWorkStatus"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                description?: components["schemas"]["FilterText"];
                created_by?: string;
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                /** @description The pipeline's id (an exact value, as every id filter). */
                id?: string;
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
                finished_at?: components["schemas"]["FilterDate"];
                finished_at_gt?: components["schemas"]["DateBound"];
                finished_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pipelines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        pipelines: components["schemas"]["Pipeline"][];
                        total: number;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PipelineCreate"];
            };
        };
        responses: {
            /** @description The pipeline (pending). */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    cancelPipelines: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    pipeline_ids: string[];
                };
            };
        };
        responses: {
            /** @description What was canceled, and what was not touched. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        canceled_pipeline_ids: string[];
                        /** @description No such pipeline in this organization (unknown or another organization's). */
                        not_found_pipeline_ids?: string[];
                        /** @description Pipelines of projects where the caller lacks pipeline:update. */
                        forbidden_pipeline_ids?: string[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pipeline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deletePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updatePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PipelineUpdate"];
            };
        };
        responses: {
            /** @description The pipeline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listPipelineElements: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The elements. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PipelineElement"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getPipelineResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The results so far. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PipelineResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getDatafitPlotData: {
        parameters: {
            query: {
                objective_name: string;
                plot_index?: number;
                max_points?: number;
                x_min?: number;
                x_max?: number;
            };
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plot. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        type?: string;
                        traces: {
                            name: string;
                            x: (number | null)[];
                            y: (number | null)[];
                        }[];
                        layout: Record<string, never>;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    cancelPipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pipeline, canceled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listSimplePipelines: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 10). */
                limit?: number;
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "status" | "created_at" | "updated_at" | "finished_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                project_id?: string;
                /** @description eq.X or in.(a,b) */
                status?: components["schemas"]["FilterWorkStatus"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                description?: components["schemas"]["FilterText"];
                created_by?: string;
                /** @description eq.X, ilike.%X%, in.(a,b) */
                created_by_email?: components["schemas"]["FilterText"];
                /** @description The pipeline's id (an exact value, as every id filter). */
                id?: string;
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
                finished_at?: components["schemas"]["FilterDate"];
                finished_at_gt?: components["schemas"]["DateBound"];
                finished_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of simple pipelines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Pipeline"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createSimplePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimplePipelineCreate"];
            };
        };
        responses: {
            /** @description The simple pipeline (pending). */
            202: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getSimplePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simple pipeline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteSimplePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateSimplePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PipelineUpdate"];
            };
        };
        responses: {
            /** @description The simple pipeline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    cancelSimplePipeline: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pipeline_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simple pipeline, canceled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listOptimizations: {
        parameters: {
            query?: {
                project_id?: string;
                /** @description Page size, 1 to 1000 (default 50). */
                limit?: number;
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The optimizations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        optimizations: components["schemas"]["Optimization"][];
                        total: number;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationError"];
        };
    };
    createOptimization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OptimizationCreate"];
            };
        };
        responses: {
            /** @description The optimization (queued). */
            201: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Optimization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getOptimization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                optimization_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The optimization. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Optimization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateOptimization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                optimization_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PipelineUpdate"];
            };
        };
        responses: {
            /** @description The optimization. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Optimization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    cancelOptimization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                optimization_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The optimization with its status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Optimization"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    fitFromMeasurements: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FitFromMeasurementsCreate"];
            };
        };
        responses: {
            /** @description The simple pipeline (pending), as POST /simple_pipelines answers it. */
            202: {
                headers: {
                    /** @description /simple_pipelines/{id} */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    fitFromFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["FitFromFileCreate"];
            };
        };
        responses: {
            /** @description The simple pipeline (pending), as POST /simple_pipelines answers it. */
            202: {
                headers: {
                    /** @description /simple_pipelines/{id} */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pipeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getDiagnosticEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The diagnostic event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticEvent"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listPlannedMeasurements: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "status" | "planned_start_time" | "planned_end_time" | "estimated_duration_seconds" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description requested, scheduled, in_progress, completed or cancelled (also eq.X, neq.X, in.(a,b)) */
                status?: components["schemas"]["FilterPlanStatus"];
                channel_id?: string;
                protocol_id?: string;
                cell_specification_id?: string;
                cell_instance_id?: string;
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                notes?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                requested_by_email?: components["schemas"]["FilterText"];
                /** @description gte.<iso> or lte.<iso> */
                planned_start_time?: components["schemas"]["FilterDate"];
                planned_start_time_gt?: components["schemas"]["DateBound"];
                planned_start_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                planned_end_time?: components["schemas"]["FilterDate"];
                planned_end_time_gt?: components["schemas"]["DateBound"];
                planned_end_time_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of planned measurements. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["PlannedMeasurement"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createPlannedMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlannedMeasurementCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlannedMeasurement"];
                };
            };
            /** @description A referenced channel, protocol or cell specification of another project. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The name is taken (detail.existing_id), or the window collides (detail.collides_with), or the channel is out of commission or its ratings are too small (detail.limits). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    proposeAutoSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    planned_measurement_ids: string[];
                    /**
                     * Format: date-time
                     * @description No window starts before this (nor before now).
                     */
                    start_after?: string;
                };
            };
        };
        responses: {
            /** @description The proposal; unscheduled assignments carry the reason. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutoScheduleProposal"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    applyAutoSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    assignments: {
                        /** Format: uuid */
                        planned_measurement_id: string;
                        planned_measurement_name?: string;
                        /** Format: date-time */
                        planned_measurement_updated_at: string;
                        /** Format: uuid */
                        channel_id: string;
                        channel_name?: string | null;
                        cycler_name?: string | null;
                        /** Format: date-time */
                        planned_start_time: string;
                        /** Format: date-time */
                        planned_end_time: string;
                        /** @description Only complete assignments are applied. */
                        unscheduled_reason?: null;
                    }[];
                };
            };
        };
        responses: {
            /** @description The plans as scheduled, in the order given. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlannedMeasurement"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description SCHEDULE_STALE: a plan or channel changed since the proposal; nothing was applied. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getPlannedMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                planned_measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The planned measurement. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlannedMeasurement"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deletePlannedMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                planned_measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationError"];
        };
    };
    updatePlannedMeasurement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                planned_measurement_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlannedMeasurementUpdate"];
            };
        };
        responses: {
            /** @description The planned measurement as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlannedMeasurement"];
                };
            };
            /** @description A referenced channel, protocol or cell specification of another project. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description A transition that makes no sense (detail.status is the current one), a collision (detail.collides_with), an out-of-commission channel, ratings (detail.limits), or a taken name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    initiateRawDataUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RawDataUploadFields"];
            };
        };
        responses: {
            /** @description The upload target. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InitiateRawDataUploadResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    confirmRawDataUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RawDataConfirmRequest"];
            };
        };
        responses: {
            /** @description Already confirmed; the record as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RawData"];
                };
            };
            /** @description The record. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RawData"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    listRawData: {
        parameters: {
            query?: {
                project_id?: string;
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "filename" | "size_bytes" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                filename?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                source?: components["schemas"]["FilterText"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of raw-data records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["RawData"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getRawData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RawData"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteRawData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateRawData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RawDataUpdate"];
            };
        };
        responses: {
            /** @description The record as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RawData"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getRawDataDownloadUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedDownloadUrl"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listRawDataMeasurements: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path: {
                raw_data_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of measurement ids. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: string[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listMeasurementRawData: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of raw-data records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["RawData"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    attachMeasurementRawData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RawDataAttachRequest"];
            };
        };
        responses: {
            /** @description Every raw-data id now linked to the measurement. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeasurementRawDataLinks"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    detachMeasurementRawData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                measurement_id: string;
                raw_data_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listMaterials: {
        parameters: {
            query?: {
                project_id?: string;
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "manufacturer" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description X (exact: the client sends a bare value), eq.X, ilike.%X%, in.(a,b). A bare value that begins like an operator and a dot (gt.1, in.x) is read as that operator: one this filter does not take, or a malformed list, is 422. */
                name?: string;
                /** @description X (exact), eq.X, ilike.%X%, in.(a,b). A bare value that begins like an operator and a dot (gt.1, in.x) is read as that operator: one this filter does not take, or a malformed list, is 422. */
                manufacturer?: string;
                /** @description X (exact), eq.X, ilike.%X%, in.(a,b). A bare value that begins like an operator and a dot (gt.1, in.x) is read as that operator: one this filter does not take, or a malformed list, is 422. */
                product_id?: string;
                /** @description X (exact), eq.X, in.(a,b). A bare value that begins like an operator and a dot (gt.1, in.x) is read as that operator: one this filter does not take, or a malformed list, is 422. */
                category?: string;
                /** @description gte.<iso> or lte.<iso> */
                created_at?: components["schemas"]["FilterDate"];
                created_at_gt?: components["schemas"]["DateBound"];
                created_at_lt?: components["schemas"]["DateBound"];
                /** @description gte.<iso> or lte.<iso> */
                updated_at?: components["schemas"]["FilterDate"];
                updated_at_gt?: components["schemas"]["DateBound"];
                updated_at_lt?: components["schemas"]["DateBound"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of materials. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Material"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    getMaterial: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                material_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The material. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Material"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listMaterialPropertyDatasets: {
        parameters: {
            query: {
                material_id: string;
                project_id?: string;
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of datasets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["MaterialPropertyDataset"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createMaterialPropertyDataset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["MaterialPropertyDatasetCreate"];
            };
        };
        responses: {
            /** @description The dataset. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaterialPropertyDataset"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getMaterialPropertyDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaterialPropertyDataset"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteMaterialPropertyDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateMaterialPropertyDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaterialPropertyDatasetUpdate"];
            };
        };
        responses: {
            /** @description The dataset as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaterialPropertyDataset"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getMaterialPropertyDatasetData: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Column name to values. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: (number | string | boolean | null)[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    replaceMaterialPropertyDatasetFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["MaterialPropertyDatasetFile"];
            };
        };
        responses: {
            /** @description The dataset as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaterialPropertyDataset"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getMaterialPropertyDatasetDownloadUrl: {
        parameters: {
            query?: {
                kind?: "parquet";
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedDownloadUrl"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    listAnalyses: {
        parameters: {
            query?: {
                measurement_id?: string;
                project_id?: string;
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description Items to skip, at least 0. */
                offset?: components["parameters"]["Offset"];
                order_by?: "name" | "analysis_type" | "created_at" | "updated_at";
                /** @description Without it, the list's default column keeps its default direction (e.g. newest first) and a column named in order_by sorts ascending. */
                order?: components["parameters"]["Order"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                analysis_type?: components["schemas"]["FilterText"];
                /** @description eq.X, ilike.%X%, in.(a,b) */
                name?: components["schemas"]["FilterText"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of analyses. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page"] & {
                        items?: components["schemas"]["Analysis"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    createAnalysis: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["AnalysisCreate"];
            };
        };
        responses: {
            /** @description The analysis. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analysis"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getAnalysis: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The analysis. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analysis"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    deleteAnalysis: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Deleted"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
    updateAnalysis: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnalysisUpdate"];
            };
        };
        responses: {
            /** @description The analysis as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analysis"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
        };
    };
    getAnalysisDownloadUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                analysis_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedDownloadUrl"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationError"];
        };
    };
}
