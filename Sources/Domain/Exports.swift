// Domain's entities are written in JSON's values (`Item.fields`, `Record`), and every module that imports Domain
// (provider packages through ProviderKit's product among them) has always found JSONValue there: re-exported, so
// `import Domain` still brings the JSON library with it.
@_exported import JSON
