/// The OpenAPI 3.1 document of every `/api` route, served at `/api/openapi.json`. The repository keeps the same
/// bytes in docs/openapi.json (a test holds them equal, and another holds its paths equal to the router's `/api`
/// routes): a route and its description change together. Written here rather than as a resource, so a copied
/// binary serves it too.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "aggregate serve",
    "version": "1",
    "description": "The JSON API of `aggregate serve`: the latest report, the archived items, each source's state and refreshes. With a token configured (--token-file or AGGREGATE_SERVE_TOKEN) every route needs it as `Authorization: Bearer <token>` (or the dashboard's session cookie); without one the server answers requests naming it by a loopback name only. Every error is JSON: `{\"error\": {\"parameter\": …, \"message\": …}}`, also a 400 for a request the HTTP parser cannot read and a 405 (with `Allow`) for a method a route does not take. GET answers carry an ETag and honour If-None-Match, and are gzipped when asked."
  },
  "servers": [
    {
      "url": "http://127.0.0.1:8080"
    }
  ],
  "security": [
    {},
    {
      "bearer": []
    }
  ],
  "paths": {
    "/api/report": {
      "get": {
        "operationId": "getReport",
        "summary": "The latest report (`--format json`), a page of sources at a time",
        "description": "Sources in manifest order, each with its items; a `Link: <…>; rel=\"next\"` header names the next page while there is one.",
        "parameters": [
          {
            "$ref": "#/components/parameters/sourceLimit1000"
          },
          {
            "$ref": "#/components/parameters/cursor"
          }
        ],
        "responses": {
          "200": {
            "description": "The report document over this page's sources.",
            "headers": {
              "Link": {
                "$ref": "#/components/headers/Link"
              },
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Report"
                }
              }
            }
          },
          "304": {
            "description": "Not modified: the representation named by If-None-Match is still current."
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "414": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/api/items": {
      "get": {
        "operationId": "getItems",
        "summary": "Archived items of the watched sources: filtered, searched and paged from the store",
        "parameters": [
          {
            "$ref": "#/components/parameters/source"
          },
          {
            "$ref": "#/components/parameters/kind"
          },
          {
            "$ref": "#/components/parameters/since"
          },
          {
            "$ref": "#/components/parameters/q"
          },
          {
            "$ref": "#/components/parameters/sort"
          },
          {
            "$ref": "#/components/parameters/itemLimit"
          },
          {
            "$ref": "#/components/parameters/cursor"
          }
        ],
        "responses": {
          "200": {
            "description": "A page of items and the cursor of the next one (null on the last page).",
            "headers": {
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "items",
                    "nextCursor"
                  ],
                  "properties": {
                    "items": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/Item"
                      }
                    },
                    "nextCursor": {
                      "type": [
                        "string",
                        "null"
                      ]
                    }
                  }
                }
              }
            }
          },
          "304": {
            "description": "Not modified: the representation named by If-None-Match is still current."
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "414": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/api/sources": {
      "get": {
        "operationId": "getSources",
        "summary": "Each source's state, a page of sources at a time",
        "parameters": [
          {
            "$ref": "#/components/parameters/sourceLimit10000"
          },
          {
            "$ref": "#/components/parameters/cursor"
          }
        ],
        "responses": {
          "200": {
            "description": "The sources of this page, in manifest order.",
            "headers": {
              "Link": {
                "$ref": "#/components/headers/Link"
              },
              "ETag": {
                "$ref": "#/components/headers/ETag"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "sources"
                  ],
                  "properties": {
                    "sources": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/SourceState"
                      }
                    }
                  }
                }
              }
            }
          },
          "304": {
            "description": "Not modified: the representation named by If-None-Match is still current."
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "414": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/api/sources/{id}/refresh": {
      "post": {
        "operationId": "refreshSource",
        "summary": "Asks the watch to refresh one source now",
        "description": "Refused from another origin (a browser sends `Origin` with a POST).",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "A watched source's id.",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "202": {
            "description": "The watch took it.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "id",
                    "status"
                  ],
                  "properties": {
                    "id": {
                      "type": "string"
                    },
                    "status": {
                      "const": "refreshing"
                    }
                  }
                }
              }
            }
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "414": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/api/openapi.json": {
      "get": {
        "operationId": "getOpenAPI",
        "summary": "This document",
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document of the API.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "openapi",
                    "paths"
                  ]
                }
              }
            }
          },
          "304": {
            "description": "Not modified: the representation named by If-None-Match is still current."
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "414": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "The server's token (--token-file or AGGREGATE_SERVE_TOKEN)."
      }
    },
    "parameters": {
      "cursor": {
        "name": "cursor",
        "in": "query",
        "description": "Where the previous page ended: its `Link` header's cursor, or `/api/items`' `nextCursor`.",
        "schema": {
          "type": "string"
        }
      },
      "sourceLimit1000": {
        "name": "limit",
        "in": "query",
        "description": "Sources a page (100 by default).",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 1000
        }
      },
      "sourceLimit10000": {
        "name": "limit",
        "in": "query",
        "description": "Sources a page (1,000 by default).",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 10000
        }
      },
      "itemLimit": {
        "name": "limit",
        "in": "query",
        "description": "Items a page (50 by default).",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 500
        }
      },
      "source": {
        "name": "source",
        "in": "query",
        "description": "Only these sources, comma-separated; each must be watched.",
        "schema": {
          "type": "string",
          "maxLength": 2048
        }
      },
      "kind": {
        "name": "kind",
        "in": "query",
        "description": "Only these kinds, comma-separated.",
        "schema": {
          "type": "string",
          "maxLength": 2048
        }
      },
      "since": {
        "name": "since",
        "in": "query",
        "description": "Only items dated after this ISO 8601 date-time (an undated item: first seen after it).",
        "schema": {
          "type": "string",
          "format": "date-time"
        }
      },
      "q": {
        "name": "q",
        "in": "query",
        "description": "Full-text search of the archive: words (stemmed), \"phrases\", prefix*, OR between terms, -word to leave out (docs/SEARCH.md). A query the syntax does not take is a 400 naming the mistake.",
        "schema": {
          "type": "string",
          "minLength": 1,
          "maxLength": 256
        }
      },
      "sort": {
        "name": "sort",
        "in": "query",
        "description": "`date` (the default): newest first; `oldest`: oldest first; `relevance` (the default with `q`): best match first.",
        "schema": {
          "type": "string",
          "enum": [
            "date",
            "oldest",
            "relevance"
          ]
        }
      }
    },
    "headers": {
      "Link": {
        "description": "`<path>; rel=\"next\"` while another page follows.",
        "schema": {
          "type": "string"
        }
      },
      "ETag": {
        "description": "The representation's tag, for If-None-Match.",
        "schema": {
          "type": "string"
        }
      }
    },
    "responses": {
      "Problem": {
        "description": "The request cannot be answered; the message says why, `parameter` names the parameter at fault.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Unauthorized": {
        "description": "A token is configured and the request did not carry it.",
        "headers": {
          "WWW-Authenticate": {
            "schema": {
              "type": "string"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Forbidden": {
        "description": "No token is configured and the request named the server by another name than loopback, or a refresh came from another origin.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    },
    "schemas": {
      "Error": {
        "type": "object",
        "required": [
          "error"
        ],
        "additionalProperties": false,
        "properties": {
          "error": {
            "type": "object",
            "required": [
              "message"
            ],
            "additionalProperties": false,
            "properties": {
              "parameter": {
                "type": "string"
              },
              "message": {
                "type": "string"
              }
            }
          }
        }
      },
      "SourceError": {
        "type": "object",
        "required": [
          "kind",
          "message"
        ],
        "properties": {
          "kind": {
            "type": "string"
          },
          "message": {
            "type": "string"
          }
        }
      },
      "Item": {
        "type": "object",
        "required": [
          "source",
          "kind",
          "id",
          "title",
          "subtitle",
          "url",
          "date",
          "fields"
        ],
        "properties": {
          "source": {
            "type": "string"
          },
          "kind": {
            "type": "string",
            "enum": [
              "record",
              "weather",
              "issue",
              "movie",
              "entry"
            ]
          },
          "id": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "subtitle": {
            "type": [
              "string",
              "null"
            ]
          },
          "url": {
            "type": [
              "string",
              "null"
            ]
          },
          "date": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "fields": {
            "type": "object"
          }
        }
      },
      "SourceReport": {
        "type": "object",
        "required": [
          "id",
          "provider",
          "status",
          "cache",
          "itemCount",
          "durationMs"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "provider": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "ok",
              "error",
              "timeout",
              "skipped",
              "stale"
            ]
          },
          "cache": {
            "type": "string"
          },
          "itemCount": {
            "type": "integer",
            "minimum": 0
          },
          "durationMs": {
            "type": "integer",
            "minimum": 0
          },
          "filtered": {
            "type": "integer"
          },
          "error": {
            "$ref": "#/components/schemas/SourceError"
          },
          "warnings": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "message": {
            "type": "string"
          }
        }
      },
      "Report": {
        "type": "object",
        "required": [
          "generatedAt",
          "summary",
          "sources",
          "items"
        ],
        "properties": {
          "generatedAt": {
            "type": "string",
            "format": "date-time"
          },
          "summary": {
            "type": "object"
          },
          "sources": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/SourceReport"
            }
          },
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Item"
            }
          }
        }
      },
      "SourceState": {
        "type": "object",
        "required": [
          "id",
          "provider",
          "status",
          "running",
          "cache",
          "itemCount",
          "durationMs",
          "lastSuccess",
          "updated",
          "nextRefresh",
          "error"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "provider": {
            "type": [
              "string",
              "null"
            ]
          },
          "status": {
            "type": "string",
            "enum": [
              "loading",
              "ok",
              "error",
              "timeout",
              "skipped",
              "stale"
            ]
          },
          "running": {
            "type": "boolean"
          },
          "cache": {
            "type": [
              "string",
              "null"
            ]
          },
          "itemCount": {
            "type": "integer",
            "minimum": 0
          },
          "durationMs": {
            "type": [
              "integer",
              "null"
            ]
          },
          "lastSuccess": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "updated": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "nextRefresh": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "error": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/SourceError"
              },
              {
                "type": "null"
              }
            ]
          }
        }
      }
    }
  }
}
"""#
}
