// A minimal bundle entry for tests: the regex-matcher role alone, bundled by esbuild like a server.
import { runWorkerRoleIfAny } from "../../../templates/kinds/validate_json/matcher/worker.js";

runWorkerRoleIfAny();
