#include "util/masking/argv_rules.hpp"

#include "util/masking/characters.hpp"
#include "util/masking/secret_names.hpp"

namespace sextant::masking {
namespace {

bool is_flag(std::string_view word) {
  return word.size() >= 2 && word[0] == '-' &&
         (ascii_alpha(word[1]) || (word[1] == '-' && word.size() >= 3 && ascii_alpha(word[2])));
}

bool is_long_flag(std::string_view word) {
  return word.size() >= 3 && word[0] == '-' && word[1] == '-' && ascii_alpha(word[2]);
}

std::string_view without_dashes(std::string_view word) {
  while (!word.empty() && word.front() == '-') {
    word.remove_prefix(1);
  }
  return word;
}

// A name may start a word, or follow one of these inside it (--from-literal=password=x).
bool name_may_follow(char c) {
  return c == '=' || c == ',' || c == ';' || c == ':' || c == '{' || c == '(';
}

bool is_one_of(std::string_view word, std::initializer_list<std::string_view> words) {
  for (std::string_view candidate : words) {
    if (equals_lowered(word, candidate)) {
      return true;
    }
  }
  return false;
}

// A command's program, as a path may name it (/usr/bin/curl).
std::string_view program_name(std::string_view word) {
  if (auto slash = word.rfind('/'); slash != std::string_view::npos) {
    word.remove_prefix(slash + 1);
  }
  return word;
}

// Words that run the command after them.
bool runs_next(std::string_view word) {
  return is_one_of(word, {"sudo", "env", "exec", "nohup", "time", "command", "nice", "xargs", "doas", "then", "do"});
}

class argv_judge {
 public:
  argv_judge(const std::vector<argv_word>& words, bool free_text) : words_(words), free_text_(free_text) {}

  std::vector<argv_hide> judge() {
    for (std::size_t i = 0; i < words_.size(); ++i) {
      judge_word(i);
    }
    std::size_t begin = 0;
    while (begin < words_.size()) {
      std::size_t end = begin + 1;
      while (end < words_.size() && !words_[end].starts_command) {
        ++end;
      }
      judge_command(begin, end);
      begin = end;
    }
    return std::move(hides_);
  }

 private:
  std::string_view word(std::size_t i) const { return words_[i].value; }

  // The next word of the same command after `i`, when there is one.
  bool has_next(std::size_t i, std::size_t end) const { return i + 1 < end; }

  void hide(std::size_t i, std::size_t from = 0) {
    if (from < word(i).size()) {
      hides_.push_back({i, from});
    }
  }

  void judge_word(std::size_t i) {
    const std::string_view w = word(i);
    if (std::optional<std::size_t> from = secret_value_in_word(w)) {
      hide(i, *from);
      return;
    }
    if (!is_flag(w) || w.find('=') != std::string_view::npos) {
      return;
    }
    const std::string_view name = without_dashes(w);
    if (!secret_looking_key(name) || i + 1 >= words_.size() || words_[i + 1].starts_command) {
      return;
    }
    const std::string_view value = word(i + 1);
    if (!is_long_flag(value) && !shown_path_value(name, value)) {
      hide(i + 1);
    }
  }

  // The positional secrets of one command, words [begin, end).
  void judge_command(std::size_t begin, std::size_t end) {
    // "set NAME VALUE" with a secret-looking NAME: aws configure set, git config set, ...
    for (std::size_t i = begin; i + 2 < end; ++i) {
      if (equals_lowered(word(i), "set") && !is_flag(word(i + 1)) && secret_looking_key(word(i + 1)) &&
          !shown_path_value(word(i + 1), word(i + 2))) {
        hide(i + 2);
      }
    }
    std::size_t k = begin;
    while (k < end && (runs_next(word(k)) || is_flag(word(k)) || secret_value_in_word(word(k)) ||
                       (word(k).find('=') != std::string_view::npos && word(k).find('/') == std::string_view::npos))) {
      ++k;
    }
    if (k >= end) {
      return;
    }
    const std::string_view program = program_name(word(k));
    if (is_one_of(program, {"wandb", "vault"}) && has_next(k, end) && equals_lowered(word(k + 1), "login")) {
      for (std::size_t i = k + 2; i < end; ++i) {
        if (!is_flag(word(i))) {
          hide(i);
          if (free_text_) {
            break;
          }
        }
      }
    } else if (is_one_of(program, {"ngrok"})) {
      if (has_next(k, end) && equals_lowered(word(k + 1), "authtoken") && has_next(k + 1, end)) {
        hide(k + 2);
      } else if (k + 3 < end && equals_lowered(word(k + 1), "config") && equals_lowered(word(k + 2), "add-authtoken")) {
        hide(k + 3);
      }
    } else if (is_one_of(program,
                         {"docker", "podman", "nerdctl", "helm", "oras", "skopeo", "buildah", "crane", "az"})) {
      for (std::size_t i = k + 1; i < end; ++i) {
        if (equals_lowered(word(i), "login")) {
          short_option_values(i + 1, end, {"-p"});
          break;
        }
      }
    } else if (is_one_of(program, {"sshpass"})) {
      short_option_values(k + 1, end, {"-p"});
    } else if (is_one_of(program, {"redis-cli"})) {
      short_option_values(k + 1, end, {"-a"});
    } else if (is_one_of(program, {"mysql", "mariadb", "mysqladmin", "mysqldump", "mysqlsh"})) {
      for (std::size_t i = k + 1; i < end; ++i) {
        if (word(i).size() > 2 && equals_lowered(word(i).substr(0, 2), "-p")) {
          hide(i, 2);
        }
      }
    } else if (is_one_of(program, {"curl"})) {
      short_option_values(k + 1, end, {"-u", "-U", "--user", "--proxy-user"});
      for (std::size_t i = k + 1; i < end; ++i) {
        const std::string_view w = word(i);
        if (equals_lowered(w.substr(0, std::min<std::size_t>(w.size(), 7)), "--user=") ||
            equals_lowered(w.substr(0, std::min<std::size_t>(w.size(), 13)), "--proxy-user=")) {
          hide(i, w.find('=') + 1);
        }
      }
    }
  }

  // `-p VALUE` and `-pVALUE` for each of `options` among words [begin, end), in either case: when
  // unsure, hide (mysql's -P is a port; hiding it costs nothing).
  void short_option_values(std::size_t begin, std::size_t end, std::initializer_list<std::string_view> options) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::string_view w = word(i);
      for (std::string_view option : options) {
        if (equals_lowered(w, option) && i + 1 < end) {
          hide(i + 1);
        } else if (option.size() == 2 && w.size() > 2 && equals_lowered(w.substr(0, 2), option)) {
          hide(i, 2);
        }
      }
    }
  }

  const std::vector<argv_word>& words_;
  bool free_text_;
  std::vector<argv_hide> hides_;
};

}  // namespace

std::optional<std::size_t> secret_value_in_word(std::string_view word) {
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    std::size_t value = i + 1;
    if (c == '=') {
      if (i + 1 < word.size() && word[i + 1] == '=') {
        ++i;  // ==
        continue;
      }
      if (i > 0 && (word[i - 1] == '!' || word[i - 1] == '<' || word[i - 1] == '>')) {
        continue;
      }
    } else if (c == ':') {
      if (word.substr(i).starts_with("://")) {
        continue;
      }
      if (i + 1 < word.size() && word[i + 1] == '=') {
        value = i + 2;  // :=
      }
    } else {
      continue;
    }
    std::size_t begin = i;
    while (begin > 0 && name_char(word[begin - 1])) {
      --begin;
    }
    if (begin > 0 && (c == ':' || !name_may_follow(word[begin - 1]))) {
      continue;
    }
    while (value < word.size() && blank(word[value])) {
      ++value;  // "Authorization: Bearer x" quoted as one word
    }
    const std::string_view name = without_dashes(word.substr(begin, i - begin));
    if (value >= word.size() || name.empty() || !secret_looking_key(name)) {
      continue;
    }
    if (!shown_path_value(name, word.substr(value))) {
      return value;
    }
  }
  return std::nullopt;
}

std::vector<argv_hide> secret_arguments(const std::vector<argv_word>& words, bool free_text) {
  return argv_judge(words, free_text).judge();
}

}  // namespace sextant::masking
