#ifndef AGGREGATE_CLIBXML2_H
#define AGGREGATE_CLIBXML2_H

/// Feeds are parsed with the system's libxml2 (Debian: libxml2-dev), its SAX2 push parser (HTML pages and OPML
/// files with its HTML and XML tree parsers and XPath), as the SQLite store links the system's SQLite. On Linux
/// `<libxml/…>` is found through include/libxml, a symlink to /usr/include/libxml2/libxml (Package.swift,
/// libXML2Declarations); elsewhere through pkg-config (libxml-2.0).
#if defined(__has_include)
#if !__has_include(<libxml/parser.h>)
#error "aggregate parses feeds with libxml2: install libxml2-dev (Debian/Ubuntu: apt-get install libxml2-dev pkg-config; Fedora: libxml2-devel; macOS: brew install libxml2)"
#endif
#endif

#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, and its encoding.h then includes ICU's headers, which clash with the copy
// Foundation carries (_FoundationICU). ICU only adds two pointers at the end of xmlCharEncodingHandler, a
// struct this package only ever holds a pointer to, so the parser API is the same without them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/// `xmlFree` is a variable or, in builds with per-thread allocators, a macro: one function Swift can call.
static inline void aggregate_xml_free(void *pointer) {
    xmlFree(pointer);
}

/// Errors libxml2 raises without a parser context (an encoding converter failing on a document's bytes) go to
/// the thread's generic error handler, which prints to stderr; the parse still hears of them through its own
/// context. A parse silences them on its thread (libxml2 keeps the handler per thread) and restores it after.
static inline void aggregate_xml_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

typedef struct {
    xmlGenericErrorFunc handler;
    void *context;
} aggregate_xml_generic_errors;

static inline aggregate_xml_generic_errors aggregate_xml_silence_generic_errors(void) {
    aggregate_xml_generic_errors saved = { xmlGenericError, xmlGenericErrorContext };
    xmlSetGenericErrorFunc(NULL, aggregate_xml_ignore_generic_error);
    return saved;
}

static inline void aggregate_xml_restore_generic_errors(aggregate_xml_generic_errors saved) {
    xmlSetGenericErrorFunc(saved.context, saved.handler);
}

/// XPath evaluation errors: libxml2 keeps the last one in the context's `lastError` and, with no callback on
/// the context, also raises it to the thread's handlers (stderr). A no-op callback keeps it in the context
/// only, for the caller to read after a failed evaluation. (2.12 made the error argument const.)
#if LIBXML_VERSION >= 21200
static inline void aggregate_xpath_error_kept(void *userData, const xmlError *error) {
#else
static inline void aggregate_xpath_error_kept(void *userData, xmlErrorPtr error) {
#endif
    (void)userData;
    (void)error;
}

static inline void aggregate_xpath_keep_errors(xmlXPathContextPtr context) {
    context->error = aggregate_xpath_error_kept;
}

#endif
