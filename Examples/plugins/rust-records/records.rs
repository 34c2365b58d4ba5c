//! An example plugin in Rust (ABI v1, docs/PLUGINS.md): fetches a JSON array of records through the host and maps
//! each record to an item. Build: ./build.sh (Debian's rustc 1.63, --target wasm32-unknown-unknown; no crates).
//!
//! Options: {"url": "https://api.example.com/records", "credentials": {"token": "${RECORDS_TOKEN}"}}
//!   url          a JSON array of objects, or an object whose "records" is one; the host must be in allowedHosts
//!   credentials  optional (read by the host): a "token" is sent as `Authorization: Bearer …` by the host
//! A record's "id" (string or number) is its item's id; "title", "subtitle", "url" and "date" (strings) are the
//! item's; every other member goes into the item's fields as it is.
//!
//! The JSON reader (json.rs) is small and strict so that the example needs no crates; a real plugin would use serde_json.

mod json;

use json::{quote, Json};

#[link(wasm_import_module = "aggregate_v1")]
extern "C" {
    fn emit(ptr: *const u8, len: u32);
    fn log(level: i32, ptr: *const u8, len: u32);
    fn http_request(ptr: *const u8, len: u32) -> i32;
    fn result_read(ptr: *mut u8, capacity: u32) -> i32;
}

fn send(message: &str) {
    unsafe { emit(message.as_ptr(), message.len() as u32) }
}

fn log_info(text: &str) {
    unsafe { log(1, text.as_ptr(), text.len() as u32) }
}

/// Where the host writes the input. Never freed: an instance lives for one call.
#[no_mangle]
pub extern "C" fn aggregate_alloc(len: u32) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1) as usize);
    let pointer = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    pointer
}

fn input<'a>(ptr: *const u8, len: u32) -> &'a [u8] {
    unsafe { std::slice::from_raw_parts(ptr, len as usize) }
}

/// The options' problems: `url` must be an http(s) URL, and there is no other option.
#[no_mangle]
pub extern "C" fn aggregate_check(ptr: *const u8, len: u32) -> i32 {
    let input = Json::parse(input(ptr, len)).unwrap_or(Json::Null);
    let options = input.get("options");
    match options.and_then(|options| options.get("url")).and_then(Json::as_str) {
        Some(url) if url.starts_with("http://") || url.starts_with("https://") => {}
        _ => send(r#"{"type":"problem","option":"url","message":"required: the http(s) URL of a JSON array of records"}"#),
    }
    if let Some(Json::Object(members)) = options {
        for (key, _) in members.iter().filter(|(key, _)| key != "url") {
            let mut problem = String::from(r#"{"type":"problem","message":"unknown option (the only one is url)","option":"#);
            quote(key, &mut problem);
            problem.push('}');
            send(&problem);
        }
    }
    0
}

#[no_mangle]
pub extern "C" fn aggregate_run(ptr: *const u8, len: u32) -> i32 {
    match run(input(ptr, len)) {
        Ok(count) => {
            log_info(&format!("mapped {} records", count));
            0
        }
        Err(failure) => {
            let mut message = String::from(r#"{"type":"error","kind":"#);
            quote(failure.kind, &mut message);
            message.push_str(r#","message":"#);
            quote(&failure.message, &mut message);
            message.push('}');
            send(&message);
            1
        }
    }
}

/// Why a run failed: a kind of the report's (badResponse, network, parse …) and a message.
pub struct Failure {
    pub kind: &'static str,
    pub message: String,
}

pub fn fail<T>(kind: &'static str, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure { kind, message: message.into() })
}

fn run(input: &[u8]) -> Result<usize, Failure> {
    let input = Json::parse(input)?;
    let url = match input.get("options").and_then(|options| options.get("url")).and_then(Json::as_str) {
        Some(url) => url,
        None => return fail("configuration", "options.url is required"),
    };
    let mut request = String::from(r#"{"method":"GET","headers":{"Accept":"application/json"},"url":"#);
    quote(url, &mut request);
    // With a credential named "token" in the source's options.credentials, the host sends it as a bearer token;
    // the plugin only ever sees its name.
    let credentials = match input.get("credentials") {
        Some(Json::Array(names)) => names.iter().any(|name| name.as_str() == Some("token")),
        _ => false,
    };
    if credentials {
        request.push_str(r#","credentials":[{"header":"Authorization","name":"token","prefix":"Bearer "}]"#);
    }
    request.push('}');
    let size = unsafe { http_request(request.as_ptr(), request.len() as u32) };
    let mut answer = vec![0u8; size.max(0) as usize];
    unsafe { result_read(answer.as_mut_ptr(), answer.len() as u32) };
    let answer = Json::parse(&answer)?;
    if let Some(error) = answer.get("error") {
        let message = error.get("message").and_then(Json::as_str).unwrap_or("the request failed");
        return fail("network", message);
    }
    let status = answer.get("status").and_then(Json::as_number).unwrap_or("0");
    if status != "200" {
        // The report's kinds, so that an operator reads what happened: refused, missing, throttled, or down.
        let exhausted = match answer.get("headers") {
            Some(Json::Object(headers)) => headers.iter().any(|(name, value)| {
                name.eq_ignore_ascii_case("x-ratelimit-remaining") && value.as_str() == Some("0")
            }),
            _ => false,
        };
        let kind = match status {
            "403" if exhausted => "rateLimited",
            "401" | "403" => "unauthorized",
            "404" => "notFound",
            "429" => "rateLimited",
            status if status.starts_with('5') => "network",
            _ => "badResponse",
        };
        return fail(kind, format!("{} answered HTTP {}", url, status));
    }
    let text = answer.get("body").and_then(Json::as_str).unwrap_or("");
    let body = Json::parse(text.as_bytes()).map_err(|failure| Failure { kind: "badResponse", ..failure })?;
    let records = match body.get("records").unwrap_or(&body) {
        Json::Array(records) => records,
        _ => return fail("badResponse", "expected a JSON array of records"),
    };
    let mut item = String::with_capacity(512);
    let mut fields = String::with_capacity(256);
    for record in records {
        item.clear();
        fields.clear();
        item.push_str(r#"{"type":"item""#);
        if let Json::Object(members) = record {
            for (key, value) in members {
                match (key.as_str(), value) {
                    ("id", Json::Str(text) | Json::Number(text)) => {
                        item.push_str(r#","id":"#);
                        quote(text, &mut item);
                    }
                    ("title" | "subtitle" | "url" | "date", Json::Str(text)) => {
                        item.push(',');
                        quote(key, &mut item);
                        item.push(':');
                        quote(text, &mut item);
                    }
                    _ => {
                        fields.push(',');
                        quote(key, &mut fields);
                        fields.push(':');
                        value.write(&mut fields);
                    }
                }
            }
        }
        if !fields.is_empty() {
            item.push_str(r#","fields":{"#);
            item.push_str(&fields[1..]);
            item.push('}');
        }
        item.push('}');
        send(&item);
    }
    Ok(records.len())
}
