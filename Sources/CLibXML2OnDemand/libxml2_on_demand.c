// libxml2, loaded when the first feed, HTML page or OPML file is parsed rather than at every start.
//
// Linked as usual, libxml2.so.2 brings ICU (libicuuc and the 30 MB libicudata), liblzma and zlib, all loaded and
// relocated before main by every run, also by the many that parse no feed (BENCHMARKS.md, "Cold start"). The
// CLibXML2 module only declares libxml2's API (it links nothing); these definitions are the functions FeedParsing
// calls, forwarding to the real ones, found with dlopen/dlsym once (CLibraryOnDemand).
//
// `xmlFree` is a variable in libxml2 (a pointer to its deallocator, built without per-thread allocators, as
// Debian's is): here it is a variable too, pointing at a function that calls the library's.
#if defined(__linux__)

#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED  // see CLibXML2/shim.h: ICU only adds fields this package never touches
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "CLibXML2OnDemand.h"
#include "CLibraryOnDemand.h"

#define XML_SYMBOLS(X)                                                                                        \
    X(xmlCreatePushParserCtxt) X(xmlCtxtUseOptions) X(xmlFreeDoc) X(xmlFreeParserCtxt) X(xmlInitParser)       \
    X(xmlParseChunk) X(xmlSAX2GetColumnNumber) X(xmlSAX2GetLineNumber) X(xmlSAXVersion)                       \
    X(xmlSetGenericErrorFunc) X(xmlStopParser) X(xmlStringLenDecodeEntities) X(__xmlGenericError)             \
    X(__xmlGenericErrorContext) X(xmlFree)                                                                    \
    X(htmlReadMemory) X(htmlNodeDump) X(xmlBufferCreate) X(xmlBufferFree) X(xmlBufferContent)                 \
    X(xmlNodeGetContent) X(xmlGetProp) X(xmlReadMemory) X(xmlGetLastError) X(xmlResetLastError)              \
    X(xmlXPathNewContext) X(xmlXPathFreeContext) X(xmlXPathCompile) X(xmlXPathCompiledEval)                   \
    X(xmlXPathFreeCompExpr) X(xmlXPathFreeObject) X(xmlXPathFunctionLookup) X(xmlResetError)

AGGREGATE_ON_DEMAND_LIBRARY(xml2, XML_SYMBOLS, "Reading feeds, HTML pages and OPML files", "libxml2", "libxml2.so.2", "libxml2.so");
#define REAL(name) AGGREGATE_CALL(xml2, name)

xmlParserCtxtPtr xmlCreatePushParserCtxt(xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size,
                                         const char *filename) {
    return REAL(xmlCreatePushParserCtxt)(sax, user_data, chunk, size, filename);
}
int xmlCtxtUseOptions(xmlParserCtxtPtr context, int options) { return REAL(xmlCtxtUseOptions)(context, options); }
void xmlFreeDoc(xmlDocPtr document) { REAL(xmlFreeDoc)(document); }
void xmlFreeParserCtxt(xmlParserCtxtPtr context) { REAL(xmlFreeParserCtxt)(context); }
void xmlInitParser(void) { REAL(xmlInitParser)(); }
int xmlParseChunk(xmlParserCtxtPtr context, const char *chunk, int size, int terminate) {
    return REAL(xmlParseChunk)(context, chunk, size, terminate);
}
int xmlSAX2GetColumnNumber(void *context) { return REAL(xmlSAX2GetColumnNumber)(context); }
int xmlSAX2GetLineNumber(void *context) { return REAL(xmlSAX2GetLineNumber)(context); }
int xmlSAXVersion(xmlSAXHandler *handler, int version) { return REAL(xmlSAXVersion)(handler, version); }
void xmlSetGenericErrorFunc(void *context, xmlGenericErrorFunc handler) {
    REAL(xmlSetGenericErrorFunc)(context, handler);
}
void xmlStopParser(xmlParserCtxtPtr context) { REAL(xmlStopParser)(context); }
xmlChar *xmlStringLenDecodeEntities(xmlParserCtxtPtr context, const xmlChar *text, int length, int what,
                                    xmlChar end, xmlChar end2, xmlChar end3) {
    return REAL(xmlStringLenDecodeEntities)(context, text, length, what, end, end2, end3);
}
xmlGenericErrorFunc *__xmlGenericError(void) { return REAL(__xmlGenericError)(); }
void **__xmlGenericErrorContext(void) { return REAL(__xmlGenericErrorContext)(); }

// HTML pages (the html provider) and OPML files: tree parsers, node text, XPath.
htmlDocPtr htmlReadMemory(const char *buffer, int size, const char *url, const char *encoding, int options) {
    return REAL(htmlReadMemory)(buffer, size, url, encoding, options);
}
int htmlNodeDump(xmlBufferPtr buffer, xmlDocPtr document, xmlNodePtr node) {
    return REAL(htmlNodeDump)(buffer, document, node);
}
xmlBufferPtr xmlBufferCreate(void) { return REAL(xmlBufferCreate)(); }
void xmlBufferFree(xmlBufferPtr buffer) { REAL(xmlBufferFree)(buffer); }
const xmlChar *xmlBufferContent(const xmlBuffer *buffer) { return REAL(xmlBufferContent)(buffer); }
xmlChar *xmlNodeGetContent(const xmlNode *node) { return REAL(xmlNodeGetContent)(node); }
xmlChar *xmlGetProp(const xmlNode *node, const xmlChar *name) { return REAL(xmlGetProp)(node, name); }
xmlDocPtr xmlReadMemory(const char *buffer, int size, const char *url, const char *encoding, int options) {
    return REAL(xmlReadMemory)(buffer, size, url, encoding, options);
}
xmlErrorPtr xmlGetLastError(void) { return REAL(xmlGetLastError)(); }
void xmlResetLastError(void) { REAL(xmlResetLastError)(); }
xmlXPathContextPtr xmlXPathNewContext(xmlDocPtr document) { return REAL(xmlXPathNewContext)(document); }
void xmlXPathFreeContext(xmlXPathContextPtr context) { REAL(xmlXPathFreeContext)(context); }
xmlXPathCompExprPtr xmlXPathCompile(const xmlChar *expression) { return REAL(xmlXPathCompile)(expression); }
xmlXPathObjectPtr xmlXPathCompiledEval(xmlXPathCompExprPtr compiled, xmlXPathContextPtr context) {
    return REAL(xmlXPathCompiledEval)(compiled, context);
}
void xmlXPathFreeCompExpr(xmlXPathCompExprPtr compiled) { REAL(xmlXPathFreeCompExpr)(compiled); }
void xmlXPathFreeObject(xmlXPathObjectPtr object) { REAL(xmlXPathFreeObject)(object); }
xmlXPathFunction xmlXPathFunctionLookup(xmlXPathContextPtr context, const xmlChar *name) {
    return REAL(xmlXPathFunctionLookup)(context, name);
}
void xmlResetError(xmlErrorPtr error) { REAL(xmlResetError)(error); }

static void free_with_library(void *pointer) {
    (*(xmlFreeFunc *)aggregate_library_symbol(&xml2, index_xmlFree))(pointer);
}
xmlFreeFunc xmlFree = free_with_library;

#endif
