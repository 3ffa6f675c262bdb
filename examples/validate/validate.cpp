// collectcall-validate: checks customers before they are uploaded, with collectcall's own rules.
//
//   collectcall-validate [--format=auto|ndjson|json] [FILE]     (no FILE, or -, reads stdin)
//
// The input is NDJSON (one customer per line, e.g. an export about to be bulk-uploaded), or one
// JSON document: a customer, an array of customers, or the body of POST /customers/bulk
// ({"customers": [...]}). `auto` takes NDJSON when there are several lines and each starts
// with `{`, and a JSON document otherwise.
//
// Every error is printed on stdout as `line N: /path: message`, ordered by line: N is the line
// of the record in NDJSON (and the path is within the record), or the line of the member in a
// JSON document (and the path is from the document's root). A summary goes to stderr.
// Exit status: 0 every record is valid, 1 some record is invalid, 2 usage or I/O error.
#include <collectcall/collectcall.hpp>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "text_position.hpp"

namespace {

constexpr int exit_valid = 0;
constexpr int exit_invalid = 1;
constexpr int exit_usage = 2;

constexpr std::string_view usage =
    "usage: collectcall-validate [--format=auto|ndjson|json] [FILE]\n"
    "Validates customers (NDJSON, one JSON customer, an array of them, or a bulk body\n"
    "{\"customers\": [...]}) from FILE, or stdin when FILE is absent or -.\n"
    "Prints each error as `line N: /path: message`. Exit status: 0 all valid, 1 some record\n"
    "invalid, 2 usage or I/O error.\n";

enum class Format { automatic, ndjson, json };

struct Finding {
    std::size_t line;
    std::string path;
    std::string message;
};

struct Report {
    std::vector<Finding> findings;
    std::size_t records = 0;
    std::size_t invalid_records = 0;
};

bool is_blank(std::string_view s) {
    return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

std::string_view trim_left(std::string_view s) {
    const std::size_t first = s.find_first_not_of(" \t\r\n");
    return first == std::string_view::npos ? std::string_view{} : s.substr(first);
}

// The lines of `text` without their line ends.
std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        text.remove_prefix(std::min(end + 1, text.size()));
    }
    return lines;
}

bool looks_like_ndjson(const std::vector<std::string_view>& lines) {
    std::size_t records = 0;
    for (std::string_view line : lines) {
        if (is_blank(line)) continue;
        if (trim_left(line).front() != '{') return false;
        ++records;
    }
    return records >= 2;
}

bool is_malformed(const collectcall::ErrorList& errors) {
    return std::any_of(errors.begin(), errors.end(), [](const collectcall::Error& e) {
        return e.code == collectcall::codes::malformed_json;
    });
}

// collectcall states where JSON is malformed only in the message ("... at byte N: ...").
std::optional<std::size_t> malformed_offset(const collectcall::Error& error) {
    constexpr std::string_view marker = "at byte ";
    const std::size_t at = error.message.find(marker);
    if (at == std::string::npos) return std::nullopt;
    std::size_t offset = 0;
    bool digits = false;
    for (std::size_t i = at + marker.size(); i < error.message.size(); ++i) {
        const char c = error.message[i];
        if (c < '0' || c > '9') break;
        offset = offset * 10 + static_cast<std::size_t>(c - '0');
        digits = true;
    }
    return digits ? std::optional<std::size_t>(offset) : std::nullopt;
}

std::string display_path(std::string path) {
    return path.empty() ? "/" : path;
}

// One line of NDJSON is one customer; paths are within it.
void check_ndjson(const std::vector<std::string_view>& lines, Report& report) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (is_blank(lines[i])) continue;
        ++report.records;
        auto result = collectcall::read<collectcall::CustomerCreate>(lines[i]);
        if (result.ok()) continue;
        ++report.invalid_records;
        for (const collectcall::Error& e : result.errors()) {
            report.findings.push_back({i + 1, display_path(e.path), e.message});
        }
    }
}

class DocumentChecker {
  public:
    DocumentChecker(std::string_view text, Report& report)
        : text_(text), json_(text), lines_(text), report_(report) {}

    void run() {
        using collectcall::CustomerCreate;
        const std::size_t root = json_.skip_space(0);
        if (root < text_.size() && text_[root] == '[') {
            check_list(root, "",
                       document_errors<std::vector<collectcall::Validated<CustomerCreate>>>());
            return;
        }
        auto single = collectcall::read<CustomerCreate>(text_);
        const bool bulk = std::any_of(
            single.errors().begin(), single.errors().end(), [](const collectcall::Error& e) {
                return e.path == "/customers" && e.code == collectcall::codes::unknown_field;
            });
        if (bulk) {
            const collectcall::ErrorList errors = document_errors<collectcall::BulkCreateRequest>();
            const auto customers = json_.member(root, "customers", false);
            if (customers && customers->value < text_.size() && text_[customers->value] == '[') {
                check_list(customers->value, "/customers", errors);
            } else {
                add_errors(errors, 0, "");
            }
            return;
        }
        ++report_.records;
        if (!single.ok()) ++report_.invalid_records;
        add_errors(single.errors(), 0, "");
    }

  private:
    // The errors of the document as a whole. Those of an item stay with the item
    // (Validated<T>, as in a bulk request), and items are read one by one below.
    template <class T>
    collectcall::ErrorList document_errors() {
        auto result = collectcall::read<T>(text_);
        return result.ok() ? collectcall::ErrorList{} : std::move(result).errors();
    }

    // Each element of the array at `array` is a customer, read and reported on its own.
    void check_list(std::size_t array, const std::string& prefix,
                    const collectcall::ErrorList& errors) {
        add_errors(errors, 0, "");
        if (is_malformed(errors)) return;
        const auto items = json_.elements(array);
        for (std::size_t i = 0; i < items.size(); ++i) {
            const auto [begin, end] = items[i];
            ++report_.records;
            auto result =
                collectcall::read<collectcall::CustomerCreate>(text_.substr(begin, end - begin));
            if (result.ok()) continue;
            ++report_.invalid_records;
            add_errors(result.errors(), begin, prefix + "/" + std::to_string(i));
        }
    }

    // `errors` of the value starting at offset `base`, whose pointer in the document is `prefix`.
    void add_errors(const collectcall::ErrorList& errors, std::size_t base,
                    const std::string& prefix) {
        const validate::JsonText value(text_.substr(base));
        for (const collectcall::Error& e : errors) {
            std::size_t offset = base;
            if (e.code == collectcall::codes::malformed_json) {
                offset += malformed_offset(e).value_or(0);
            } else {
                offset += value.locate(value.skip_space(0), e.path,
                                       e.code == collectcall::codes::duplicate_field);
            }
            report_.findings.push_back(
                {lines_.line_of(offset), display_path(prefix + e.path), e.message});
        }
    }

    std::string_view text_;
    validate::JsonText json_;
    validate::LineIndex lines_;
    Report& report_;
};

struct Options {
    Format format = Format::automatic;
    std::string file;  // empty or "-": stdin
};

// Parses the command line; nullopt after printing why it is wrong (or the help).
std::optional<Options> parse_arguments(int argc, char** argv, int& exit_code) {
    Options options;
    bool have_file = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::cout << usage;
            exit_code = exit_valid;
            return std::nullopt;
        }
        if (arg.starts_with("--format=")) {
            const std::string_view value = arg.substr(9);
            if (value == "auto") {
                options.format = Format::automatic;
            } else if (value == "ndjson") {
                options.format = Format::ndjson;
            } else if (value == "json") {
                options.format = Format::json;
            } else {
                std::cerr << "collectcall-validate: unknown format '" << value << "'\n" << usage;
                exit_code = exit_usage;
                return std::nullopt;
            }
        } else if (arg.size() > 1 && arg.front() == '-') {
            std::cerr << "collectcall-validate: unknown option '" << arg << "'\n" << usage;
            exit_code = exit_usage;
            return std::nullopt;
        } else if (have_file) {
            std::cerr << "collectcall-validate: one input at a time\n" << usage;
            exit_code = exit_usage;
            return std::nullopt;
        } else {
            options.file = std::string(arg);
            have_file = true;
        }
    }
    return options;
}

std::optional<std::string> read_input(const std::string& file) {
    if (file.empty() || file == "-") {
        std::string text{std::istreambuf_iterator<char>(std::cin),
                         std::istreambuf_iterator<char>()};
        if (std::cin.bad()) {
            std::cerr << "collectcall-validate: cannot read stdin\n";
            return std::nullopt;
        }
        return text;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::cerr << "collectcall-validate: cannot open " << file << ": " << std::strerror(errno)
                  << '\n';
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        std::cerr << "collectcall-validate: cannot read " << file << '\n';
        return std::nullopt;
    }
    return std::move(text).str();
}

}  // namespace

int main(int argc, char** argv) {
    int exit_code = exit_valid;
    const std::optional<Options> options = parse_arguments(argc, argv, exit_code);
    if (!options) return exit_code;
    const std::optional<std::string> input = read_input(options->file);
    if (!input) return exit_usage;

    std::string_view text = *input;
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
    Report report;
    const std::vector<std::string_view> lines = split_lines(text);
    if (is_blank(trim_left(text))) {
        report.findings.push_back({1, "/", "no customers: the input is empty"});
    } else if (options->format == Format::ndjson ||
               (options->format == Format::automatic && looks_like_ndjson(lines))) {
        check_ndjson(lines, report);
    } else {
        DocumentChecker(text, report).run();
    }

    std::stable_sort(report.findings.begin(), report.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.line < b.line; });
    for (const Finding& f : report.findings) {
        std::cout << "line " << f.line << ": " << f.path << ": " << f.message << '\n';
    }
    std::cout.flush();
    std::cerr << "collectcall-validate: " << report.records
              << (report.records == 1 ? " record, " : " records, ") << report.invalid_records
              << " invalid, " << report.findings.size()
              << (report.findings.size() == 1 ? " error\n" : " errors\n");
    return report.findings.empty() ? exit_valid : exit_invalid;
}
