import Domain
import Presentation

extension ReportRenderer {
    func render(_ report: AggregateReport, _ options: RenderOptions = RenderOptions()) -> String {
        string(for: report, options: options)
    }
}
