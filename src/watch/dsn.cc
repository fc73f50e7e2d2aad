// See dsn.h. Quoting follows libpq's conninfo_parse: a value is a word, or
// single-quoted with backslash escapes; URIs carry parameters after '?'.
#include "watch/dsn.h"

#include <cctype>

namespace lockgraph {
namespace {

bool EndsWithPassword(std::string_view key) {
  constexpr std::string_view kPassword = "password";
  if (key.size() < kPassword.size()) return false;
  std::string_view tail = key.substr(key.size() - kPassword.size());
  for (size_t i = 0; i < tail.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(tail[i])) != kPassword[i]) return false;
  return true;
}

bool IsDbname(std::string_view key) { return key == "dbname"; }

std::string MaskUri(std::string_view uri, size_t scheme_end) {
  std::string out(uri.substr(0, scheme_end));
  std::string_view rest = uri.substr(scheme_end);
  size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    std::string_view user = authority.substr(0, at);
    size_t colon = user.find(':');
    out += colon == std::string_view::npos ? std::string(user)
                                           : std::string(user.substr(0, colon)) + ":***";
    out += authority.substr(at);
  } else {
    out += authority;
  }
  if (authority_end == std::string_view::npos) return out;
  rest = rest.substr(authority_end);
  size_t q = rest.find('?');
  out += rest.substr(0, q);
  if (q == std::string_view::npos) return out;
  std::string_view params = rest.substr(q + 1);
  out += '?';
  while (true) {
    size_t amp = params.find('&');
    std::string_view p = params.substr(0, amp);
    size_t eq = p.find('=');
    if (eq != std::string_view::npos && EndsWithPassword(p.substr(0, eq)))
      out += std::string(p.substr(0, eq)) + "=***";
    else
      out += p;
    if (amp == std::string_view::npos) break;
    out += '&';
    params.remove_prefix(amp + 1);
  }
  return out;
}

std::string MaskNested(std::string_view value) {
  bool quoted = value.size() >= 2 && value.front() == '\'' && value.back() == '\'';
  std::string_view inner = quoted ? value.substr(1, value.size() - 2) : value;
  if (inner.find('=') == std::string_view::npos && inner.find("://") == std::string_view::npos)
    return std::string(value);
  std::string masked = MaskDsn(inner);
  return quoted ? "'" + masked + "'" : masked;
}

// key = value pairs; the value of a *password key becomes ***.
std::string MaskKeywords(std::string_view s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) out += s[i++];
    size_t key_start = i;
    while (i < s.size() && s[i] != '=' && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::string_view key = s.substr(key_start, i - key_start);
    out += key;
    while (i < s.size() && (s[i] == '=' || std::isspace(static_cast<unsigned char>(s[i])))) {
      out += s[i];
      if (s[i++] == '=') break;
    }
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) out += s[i++];
    size_t value_start = i;
    if (i < s.size() && s[i] == '\'') {
      for (++i; i < s.size() && s[i] != '\''; ++i)
        if (s[i] == '\\' && i + 1 < s.size()) ++i;
      if (i < s.size()) ++i;
    } else {
      while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) {
        if (s[i] == '\\' && i + 1 < s.size()) ++i;
        ++i;
      }
    }
    std::string_view value = s.substr(value_start, i - value_start);
    if (EndsWithPassword(key)) out += "***";
    else if (IsDbname(key)) out += MaskNested(value);  // libpq expands a conninfo or URI there
    else out += value;
  }
  return out;
}

}  // namespace

std::string MaskSecrets(std::string_view text, const std::vector<std::string>& secrets) {
  std::string out(text);
  for (const std::string& secret : secrets) {
    if (secret.empty()) continue;
    for (size_t at = out.find(secret); at != std::string::npos; at = out.find(secret, at + 3))
      out.replace(at, secret.size(), "***");
  }
  return out;
}

std::string MaskDsn(std::string_view dsn) {
  for (std::string_view scheme : {"postgresql://", "postgres://", "mysql://", "mariadb://"})
    if (dsn.substr(0, scheme.size()) == scheme) return MaskUri(dsn, scheme.size());
  return MaskKeywords(dsn);
}

}  // namespace lockgraph
