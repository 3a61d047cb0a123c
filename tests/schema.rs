//! The JSON Schema of `--json` output: the shipped file is the one the output model generates,
//! and the real output of every command validates against it.
//!
//! After an intended change to the output model, regenerate the shipped schema and review it:
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --test all schema::
//! git diff schema/
//! ```

use crate::common;

use std::path::PathBuf;

use serde_json::{json, Value};

const SHIPPED: &str = "schema/simt-output.schema.json";

fn shipped_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(SHIPPED)
}

/// `simt ARGS` in the repository root: exit status and stdout.
fn simt(args: &[&str]) -> (i32, String) {
    let (code, out, _) = common::simt(args);
    (code, out)
}

#[test]
fn the_shipped_schema_is_the_generated_one() {
    let generated = simt::cli::schema_text();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(shipped_path().parent().expect("schema/")).expect("schema/");
        std::fs::write(shipped_path(), &generated).expect("write the schema");
        return;
    }
    let shipped = std::fs::read_to_string(shipped_path()).unwrap_or_default();
    assert!(
        shipped == generated,
        "{SHIPPED} differs from the schema the output model generates: after an intended \
change, UPDATE_GOLDEN=1 cargo test --test all schema::, then review `git diff schema/`"
    );
    // Each command's document is a definition, and the root is any of them.
    let schema: Value = serde_json::from_str(&generated).expect("the schema is JSON");
    let any: Vec<&str> = schema["anyOf"]
        .as_array()
        .expect("anyOf")
        .iter()
        .filter_map(|d| d["$ref"].as_str())
        .collect();
    for (command, def) in simt::report::model::DOCUMENTS {
        assert!(schema["$defs"].get(def).is_some(), "{command}: no {def}");
        assert!(any.contains(&format!("#/$defs/{def}").as_str()), "{def}");
    }
    assert_eq!(any.len(), simt::report::model::DOCUMENTS.len());
    // `simt schema` prints the same text.
    let (code, out) = simt(&["schema"]);
    assert_eq!(code, 0);
    assert_eq!(out, generated);
}

/// The shipped schema, and a validator for one of its documents (`$defs/NAME`).
fn validator(def: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(shipped_path()).expect("the shipped schema");
    let mut schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    assert!(
        schema["$defs"].get(def).is_some(),
        "the schema has no document {def}"
    );
    if let Some(root) = schema.as_object_mut() {
        root.remove("anyOf");
        root.insert("$ref".into(), json!(format!("#/$defs/{def}")));
    }
    jsonschema::draft202012::new(&schema).expect("a valid draft 2020-12 schema")
}

/// Checks one document against its definition and against the schema's root (any document).
fn assert_valid(def: &str, doc: &Value, what: &str) {
    let text = std::fs::read_to_string(shipped_path()).expect("the shipped schema");
    let root: Value = serde_json::from_str(&text).expect("the schema is JSON");
    let any = jsonschema::draft202012::new(&root).expect("a valid draft 2020-12 schema");
    let one = validator(def);
    let errors: Vec<String> = one
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .take(10)
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: not a valid {def}:\n{}",
        errors.join("\n")
    );
    assert!(any.is_valid(doc), "{what}: not valid against the root");
    // The schema leaves objects open (fields are added within a version), so validation alone
    // would not notice a field the model does not declare: every key printed must be named in
    // the schema, except the user's own names under `args`.
    let mut declared = std::collections::BTreeSet::new();
    property_names(&root, &mut declared);
    let mut undeclared = Vec::new();
    keys_not_in(doc, &declared, "", &mut undeclared);
    assert!(
        undeclared.is_empty(),
        "{what}: fields the schema does not declare: {undeclared:?}"
    );
}

/// Every key of every `properties` object in a schema.
fn property_names(schema: &Value, out: &mut std::collections::BTreeSet<String>) {
    match schema {
        Value::Object(m) => {
            if let Some(Value::Object(p)) = m.get("properties") {
                out.extend(p.keys().cloned());
            }
            m.values().for_each(|v| property_names(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| property_names(v, out)),
        _ => {}
    }
}

/// The paths of keys of `doc` that are not in `declared` (below `args`, any key goes).
fn keys_not_in(
    doc: &Value,
    declared: &std::collections::BTreeSet<String>,
    path: &str,
    out: &mut Vec<String>,
) {
    match doc {
        Value::Object(m) => {
            for (k, v) in m {
                if !declared.contains(k) {
                    out.push(format!("{path}/{k}"));
                }
                if k != "args" {
                    keys_not_in(v, declared, &format!("{path}/{k}"), out);
                }
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                keys_not_in(v, declared, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Runs `simt ARGS` and checks that every line it prints on stdout is a valid `def` document;
/// returns the documents.
fn check(args: &[&str], want_code: i32, def: &str) -> Vec<Value> {
    let (code, out) = simt(args);
    let what = format!("simt {}", args.join(" "));
    assert_eq!(code, want_code, "{what}: exit status\n{out}");
    let docs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {e}: {l}")))
        .collect();
    assert!(!docs.is_empty(), "{what}: printed nothing");
    for d in &docs {
        assert_valid(def, d, &what);
    }
    docs
}

#[test]
fn run_output_validates() {
    // A plain run, with every optional part: per-line counters, a lane map of a global and a
    // shared access, gates (one of them without a value), races and hints.
    check(&["run", "kernels/vecadd.sk", "--json"], 0, "RunOutput");
    let d = check(
        &[
            "run",
            "kernels/transpose_tiled.sk",
            "--json",
            "--lines",
            "--map",
            "39",
            "--max",
            "sectors_per_request=8",
            "--min",
            "occupancy=0.5",
        ],
        0,
        "RunOutput",
    );
    assert!(d[0]["lane_map"]["accesses"].as_array().is_some());
    assert_eq!(d[0]["gates_ok"], true);
    let d = check(
        &[
            "run",
            "kernels/race_missing_sync.sk",
            "--json",
            "--deny",
            "races",
        ],
        1,
        "RunOutput",
    );
    assert!(!d[0]["races"].as_array().expect("races").is_empty());
    // A block that cannot launch: no refined estimate (`{error}`), so a gate on it has no
    // value (`null`) and fails.
    let d = check(
        &[
            "run",
            "kernels/vecadd.sk",
            "--json",
            "--regs",
            "255",
            "--block",
            "1024",
            "--max",
            "time_refined=1",
        ],
        1,
        "RunOutput",
    );
    assert!(d[0]["time_refined"]["error"].is_string());
    assert!(d[0]["gates"][0]["value"].is_null());
    // A sampled run: `sample` is an object, with its cache model's clusters and bounds.
    let d = check(
        &["run", "kernels/vecadd.sk", "--json", "--sample", "0.5"],
        0,
        "RunOutput",
    );
    assert!(d[0]["cache"].is_object());
    assert!(d[0]["sample"]["cache"]["clusters"].is_u64());
    assert!(d[0]["sample"]["cache_bounds_pct"].is_object());
}

#[test]
fn sweep_rows_validate_whether_they_ran_or_failed() {
    let rows = check(
        &[
            "sweep",
            "kernels/reduce_sequential.sk",
            "--block",
            "256,512",
            "--json",
        ],
        1,
        "SweepRow",
    );
    assert_eq!(rows.len(), 2);
    assert!(rows[0]["time"].is_object());
    assert!(rows[1]["error"].is_object());
    // The failed row still says what it was.
    assert_eq!(rows[1]["kernel"], "reduce_sequential");
    assert_eq!(rows[1]["block"], json!([512, 1, 1]));
}

#[test]
fn compare_output_validates() {
    check(
        &[
            "compare",
            "kernels/transpose_tiled.sk",
            "kernels/transpose_padded.sk",
            "--json",
        ],
        0,
        "CompareOutput",
    );
}

#[test]
fn test_records_validate() {
    let recs = check(
        &[
            "test",
            "kernels/vecadd.sk",
            "kernels/out_of_bounds.sk",
            "--json",
        ],
        0,
        "TestRecord",
    );
    assert_eq!(recs.len(), 2);
}

#[test]
fn check_occupancy_scaling_and_gpus_validate() {
    check(&["check", "kernels/vecadd.sk", "--json"], 0, "CheckOutput");
    check(
        &[
            "occupancy",
            "--threads",
            "256",
            "--regs",
            "40",
            "--blocks",
            "1000",
            "--bytes-per-request",
            "128",
            "--json",
        ],
        0,
        "OccupancyOutput",
    );
    // A shape that cannot launch is still a valid document.
    check(
        &["occupancy", "--threads", "1024", "--regs", "255", "--json"],
        1,
        "OccupancyOutput",
    );
    check(
        &["scaling", "--serial", "0.1", "--procs", "8", "--json"],
        0,
        "ScalingOutput",
    );
    check(&["gpus", "--json"], 0, "GpusOutput");
    check(&["gpus", "h100-pcie", "--json"], 0, "GpuConfig");
}

#[test]
fn errors_validate() {
    // A parse or usage error (exit 2) and a run-time error (exit 1).
    let d = check(&["run", "kernels/nope.sk", "--json"], 2, "ErrorOutput");
    assert_eq!(d[0]["error"]["exit"], 2);
    let d = check(
        &["run", "kernels/out_of_bounds.sk", "--json"],
        1,
        "ErrorOutput",
    );
    assert_eq!(d[0]["error"]["code"], "simt::run::out_of_bounds");
    check(
        &["run", "kernels/vecadd.sk", "--json", "--max", "nope=1"],
        2,
        "ErrorOutput",
    );
}

#[test]
fn a_wrong_document_does_not_validate() {
    // The validator is not vacuous: a run document with `time` as a number (schema 1's sweep
    // rows) or without its counters fails.
    let (_, out) = simt(&["run", "kernels/vecadd.sk", "--json"]);
    let good: Value = serde_json::from_str(&out).expect("JSON");
    let v = validator("RunOutput");
    assert!(v.is_valid(&good));
    let mut bad = good.clone();
    bad["time"] = json!(4.0e-6);
    assert!(!v.is_valid(&bad));
    let mut bad = good.clone();
    bad.as_object_mut().expect("object").remove("counters");
    assert!(!v.is_valid(&bad));
    let mut bad = good;
    bad["schema"] = json!(1);
    assert!(!v.is_valid(&bad));
}
