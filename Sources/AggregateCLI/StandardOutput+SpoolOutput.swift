import Presentation

/// stdout takes a spooled JSON document's items as a file (`StandardOutput.write(file:count:)`).
extension StandardOutput: SpoolOutput {}
