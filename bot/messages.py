"""Every user-facing string, in English and Chinese.

Add a key to `_MESSAGES` with both languages; `t(key, lang, **values)` renders it.
"""

from __future__ import annotations

import re

from memory.lang import Lang, detect_lang

_MESSAGES: dict[str, dict[str, str]] = {
    "llm_unavailable": {
        "en": "Sorry, I can't reach my language model right now. Please try again in a minute.",
        "zh": "抱歉，我现在连不上语言模型，请稍后再试。",
    },
    # The model refused the request (`LLMUnavailable.permanent`): retrying will not help.
    "llm_refused": {
        "en": (
            "Sorry, I can't answer: the assistant's model is misconfigured or refused the "
            "request, so trying again won't help. Please tell your workspace admin."
        ),
        "zh": (
            "抱歉，我无法回答：助手的语言模型配置有误或拒绝了请求，重试也没有用。"
            "请告诉你的工作区管理员。"
        ),
    },
    "memory_unavailable": {
        "en": "Sorry, I couldn't save that right now; nothing was remembered. Please try again.",
        "zh": "抱歉，现在无法保存，这次没有记住任何内容，请稍后再试。",
    },
    # An erase that failed: "nothing was remembered" would read as if it were done.
    "memory_forget_failed": {
        "en": "Sorry, I couldn't forget that right now; nothing was erased. Please try again.",
        "zh": "抱歉，现在无法删除，这次没有删除任何内容，请稍后再试。",
    },
    # Said under the model's answer whatever it wrote (bot/agent/loop.py): an outage of
    # memory is told, never disguised as nothing remembered or as saved.
    "note_memory_unavailable": {
        "en": (
            "Note: your saved travel preferences could not be read just now (memory is "
            "unavailable), so this answer does not use them."
        ),
        "zh": "注意：暂时无法读取你保存的出行偏好（记忆服务不可用），以上回答没有用到它们。",
    },
    "note_memory_unavailable_colleague": {
        "en": (
            "Note: the traveller's saved travel preferences could not be read just now "
            "(memory is unavailable), so this answer does not use them."
        ),
        "zh": (
            "注意：暂时无法读取这位出行人保存的出行偏好（记忆服务不可用），以上回答没有用到它们。"
        ),
    },
    "note_memory_not_saved": {
        "en": (
            "Note: this could not be saved to your travel preferences just now (memory is "
            "unavailable); nothing was saved. Please tell me again later."
        ),
        "zh": (
            "注意：刚才无法保存到你的出行偏好（记忆服务不可用），这次什么都没有保存，"
            "请稍后再告诉我一次。"
        ),
    },
    "internal_error": {
        "en": "Sorry, something went wrong on my side. Please try again.",
        "zh": "抱歉，我这边出了点问题，请再试一次。",
    },
    # The agent and the terminal console (bot/agent/, bot/cli/chat.py).
    "agent_step_cap": {
        "en": (
            "Sorry, I couldn't finish that in the steps I'm allowed. "
            "Could you ask again, maybe in smaller pieces?"
        ),
        "zh": "抱歉，这个问题在允许的步骤内没能完成，可以换个方式或分几步再问我吗？",
    },
    "agent_empty_reply": {
        "en": "Sorry, I don't have an answer for that. Could you rephrase it?",
        "zh": "抱歉，我没能给出回答，可以换个说法再问一次吗？",
    },
    # `travel-bot run` with no chat platform configured (standard error, before the welcome).
    "console_no_platform": {
        "en": "No chat platform configured: the terminal console, as {user}.",
        "zh": "未配置任何聊天平台：启动终端控制台，身份为 {user}。",
    },
    "console_welcome": {
        "en": "Travel assistant console for {user}. Type /help for commands, /quit to leave.",
        "zh": "差旅助手控制台（{user}）。输入 /help 查看命令，/quit 退出。",
    },
    # First hour (issue 12): said once at the console's start.
    "console_cache_off": {
        "en": "Cache off: Redis is not answering (REDIS_URL); memory works without it.",
        "zh": "缓存已关闭：Redis 无法连接（REDIS_URL）；记忆功能照常可用。",
    },
    "console_log_file": {
        "en": "Logs go to {path}.",
        "zh": "日志写入 {path}。",
    },
    "console_no_llm": {
        "en": (
            "No language model is configured, so I can't chat yet; the memory commands work.\n"
            "To chat, set these in the environment or in .env, for example:\n"
            "  LLM_MODEL=qwen2.5:7b-instruct\n"
            "  OPENAI_BASE_URL=http://localhost:11434/v1   "
            "(any OpenAI-compatible endpoint; leave unset for OpenAI itself)\n"
            "  OPENAI_API_KEY=sk-...   (any text if your endpoint needs no key)"
        ),
        "zh": (
            "尚未配置语言模型，暂时无法对话；记忆命令可以正常使用。\n"
            "要对话，请在环境变量或 .env 中设置，例如：\n"
            "  LLM_MODEL=qwen2.5:7b-instruct\n"
            "  OPENAI_BASE_URL=http://localhost:11434/v1   "
            "（任意 OpenAI 兼容接口；使用 OpenAI 官方服务时不必设置）\n"
            "  OPENAI_API_KEY=sk-...   （接口不需要密钥时可填任意文字）"
        ),
    },
    "console_no_llm_reminder": {
        "en": (
            "I can't chat without a language model (see above). "
            "Try /remember TEXT, /recall, /prefs, /forget or /help."
        ),
        "zh": (
            "没有语言模型，我还不能对话（见上方说明）。"
            "可以使用 /remember 内容、/recall、/prefs、/forget 或 /help。"
        ),
    },
    # A message without a model: nothing was kept; the command that keeps it, ready to type.
    "console_no_llm_not_kept": {
        "en": "Nothing was saved. If it is a travel preference to keep, type: /remember {text}",
        "zh": "这句话没有保存。如果是要记住的出行偏好，请输入：/remember {text}",
    },
    "console_help": {
        "en": (
            "Commands:\n"
            "  /remember TEXT   remember a travel preference\n"
            "  /recall [QUERY]  show what I remember (optionally about QUERY)\n"
            "  /prefs           your profile and every remembered fact, with ids\n"
            "                   (/travel-prefs, as in Slack, works too)\n"
            "  /forget ID|all   forget one fact by id (as /prefs shows it), or everything\n"
            "  /travel-prefs link  a one-time link to the web preferences page\n"
            "  /help            this help\n"
            "  /quit            leave\n"
            "Anything else is a message to the assistant."
        ),
        "zh": (
            "命令：\n"
            "  /remember 内容   记住一条出行偏好\n"
            "  /recall [关键词]  查看我记住的内容（可按关键词）\n"
            "  /prefs           你的偏好档案和所有记住的条目（含编号）\n"
            "                   （也可用聊天平台里的 /travel-prefs）\n"
            "  /forget 编号|all  按编号（/prefs 所示）忘记一条，或全部忘记\n"
            "  /travel-prefs link  网页版偏好页面的一次性链接\n"
            "  /help            显示帮助\n"
            "  /quit            退出\n"
            "其他内容都会作为消息发给助手。"
        ),
    },
    # `/travel-prefs link` in the console while the web page is not set up.
    "console_link_off": {
        "en": (
            "The web preferences page is not set up here. Set PREFS_LINK_SECRET (at least "
            "16 characters, e.g. from `openssl rand -hex 32`) and PUBLIC_URL (e.g. "
            "http://127.0.0.1:3000), start `travel-bot serve`, then ask again "
            "(README: Try it in five minutes)."
        ),
        "zh": (
            "这里还没有启用网页版偏好页面。请设置 PREFS_LINK_SECRET（至少 16 个字符，"
            "例如用 `openssl rand -hex 32` 生成）和 PUBLIC_URL（例如 http://127.0.0.1:3000），"
            "启动 `travel-bot serve` 后再试（见 README 的 Try it in five minutes）。"
        ),
    },
    "console_unknown_command": {
        "en": "Unknown command {command}; type /help for the list.",
        "zh": "未知命令 {command}，输入 /help 查看命令列表。",
    },
    "console_remember_usage": {
        "en": "Usage: /remember TEXT, e.g. /remember I never take red-eye flights",
        "zh": "用法：/remember 内容，例如 /remember 出差只坐高铁一等座",
    },
    "console_added": {"en": "Remembered: {text}", "zh": "已记住：{text}"},
    "console_updated": {"en": "Updated: {text} ({reason})", "zh": "已更新：{text}（{reason}）"},
    "console_duplicate": {"en": "Already remembered: {text}", "zh": "已经记得：{text}"},
    "console_rejected": {
        "en": "Not saved: {text}. {reason}",
        "zh": "未保存：{text}。{reason}",
    },
    "console_nothing_remembered": {
        "en": "Nothing is remembered for {user} yet.",
        "zh": "还没有为 {user} 记住任何内容。",
    },
    "console_forgot": {"en": "Forgot {count} item(s).", "zh": "已忘记 {count} 条。"},
    "console_forget_how": {
        "en": "Say /forget ID to forget one fact (/prefs lists the ids), or /forget all.",
        "zh": "用 /forget 编号 忘记一条（/prefs 可查看编号），或用 /forget all 全部忘记。",
    },
    "console_forget_ambiguous": {
        "en": "{count} facts have ids beginning {item_id}; type more of the id (see /prefs).",
        "zh": "有 {count} 条的编号以 {item_id} 开头，请多输入几位（/prefs 可查看编号）。",
    },
    "console_forget_all_ask": {
        "en": "Forget all {count} fact(s) remembered for {user}, history included?",
        "zh": "确定忘记为 {user} 记住的全部 {count} 条内容（包括历史版本）吗？",
    },
    "console_forget_all_kept": {
        "en": "Nothing was forgotten.",
        "zh": "没有忘记任何内容。",
    },
    # First hour, round 2 (issue 26): a model that does not answer, named by its URL.
    "console_llm_unavailable": {
        "en": (
            "I can't reach the language model at {url} ({reason}). /remember, /recall, "
            "/prefs and /forget still work."
        ),
        "zh": "连不上 {url} 的语言模型（{reason}）。/remember、/recall、/prefs、/forget 仍然可用。",
    },
    # Why the model could not answer (`LLMUnavailable.kind`), inside a sentence.
    "llm_reason_timeout": {
        "en": "it did not answer in time",
        "zh": "模型没有及时回答",
    },
    "llm_reason_refused": {
        "en": "it refused the request, HTTP {status}",
        "zh": "模型拒绝了请求，HTTP {status}",
    },
    # A refusal that came with no HTTP status (`LLMUnavailable.reason_key`).
    "llm_reason_refused_unnamed": {
        "en": "it refused the request",
        "zh": "模型拒绝了请求",
    },
    "llm_reason_unusable": {
        "en": "its answer could not be read",
        "zh": "模型的回答无法读取",
    },
    "llm_reason_broke_off": {
        "en": "its answer broke off",
        "zh": "模型的回答中途中断了",
    },
    "llm_reason_exhausted": {
        "en": "no answer after {attempts} tries",
        "zh": "试了 {attempts} 次都没有回应",
    },
    "console_forget_missing": {
        "en": "No remembered fact has the id {item_id}; /prefs lists the ids.",
        "zh": "没有编号为 {item_id} 的条目，可用 /prefs 查看编号。",
    },
    "llm_not_configured": {
        "en": (
            "I'm not fully set up yet: no language model is configured, so I can't answer. "
            "Please ask whoever runs me to set LLM_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)."
        ),
        "zh": (
            "我还没有配置好：没有设置语言模型，暂时无法回答。"
            "请联系管理员设置 LLM_MODEL（以及 OPENAI_BASE_URL / OPENAI_API_KEY）。"
        ),
    },
    "message_too_long": {
        "en": (
            "That message is too long for me ({length} characters). "
            "Please send it again in under {limit} characters."
        ),
        "zh": "这条消息太长了（{length} 个字符），请精简到 {limit} 个字符以内再发一次。",
    },
    "busy": {
        "en": "I'm answering a lot of people right now. Please try again in a minute.",
        "zh": "我现在正在回复很多人，请过一分钟再试。",
    },
    # What a channel may show while a turn runs (`ReplySink.status`; Slack shows a reaction).
    "working": {"en": "Working on it…", "zh": "正在处理…"},
    "empty_mention": {
        "en": (
            "Hi! Tell me about a trip you're planning, or a travel preference I should "
            'remember, e.g. "I never take red-eye flights".'
        ),
        "zh": "你好！告诉我你要规划的行程，或者需要我记住的出行偏好，比如“出差只坐高铁一等座”。",
    },
    # /travel-prefs and the App Home (bot/prefs/, bot/slack/preferences.py, bot/slack/views/).
    "prefs_title": {"en": "Travel preferences", "zh": "出行偏好"},
    "prefs_save": {"en": "Save", "zh": "保存"},
    "prefs_cancel": {"en": "Cancel", "zh": "取消"},
    "prefs_close": {"en": "Close", "zh": "关闭"},
    "prefs_loading": {
        "en": ":hourglass_flowing_sand: Loading your preferences…",
        "zh": ":hourglass_flowing_sand: 正在读取你的偏好…",
    },
    "prefs_intro": {
        "en": (
            "Choose what holds for your trips; clear a choice to forget it. "
            "What you tell me in chat shows up here too."
        ),
        "zh": (
            "选择适用于你出行的偏好；清空某项即表示忘记它。你在聊天中告诉我的偏好也会显示在这里。"
        ),
    },
    "prefs_no_preference": {"en": "No preference", "zh": "无偏好"},
    "prefs_choose": {"en": "Choose…", "zh": "请选择…"},
    "prefs_scoped_hint": {
        "en": "Only for some trips (say so in chat to change them): {values}",
        "zh": "仅限部分行程（在聊天中告诉我即可修改）：{values}",
    },
    "prefs_suggested_hint": {
        "en": "Suggested from what you told me in chat; save to keep it.",
        "zh": "根据你在聊天中说过的话推荐，保存后生效。",
    },
    "prefs_free_text_label": {"en": "Anything else?", "zh": "还有其他偏好吗？"},
    "prefs_free_text_placeholder": {
        "en": "e.g. a quiet room away from the lift",
        "zh": "例如：房间要安静，远离电梯",
    },
    "prefs_free_text_hint": {
        "en": (
            "One preference in your own words. Never include ID, card or phone numbers, "
            "passwords or exact amounts."
        ),
        "zh": "用你自己的话写一条偏好。请勿填写证件号、卡号、电话号码、密码或具体金额。",
    },
    "prefs_readonly_heading": {
        "en": "*Also remembered from our chats* (forget them on my Home tab):",
        "zh": "*聊天中记住的其他偏好*（可在我的主页标签中删除）：",
    },
    "prefs_more": {"en": "…and {count} more", "zh": "……还有 {count} 条"},
    "prefs_invalid_option": {
        "en": "That choice is not on the list, so nothing was saved. Please choose again.",
        "zh": "这个选项不在列表中，没有保存任何内容，请重新选择。",
    },
    "prefs_conflict": {
        "en": "{options} is also chosen under “{other}”. Keep it in one of the two.",
        "zh": "{options}同时出现在“{other}”中，请只保留其中一处。",
    },
    "prefs_too_long": {
        "en": "Please keep it under {limit} characters.",
        "zh": "请控制在 {limit} 个字符以内。",
    },
    "prefs_control_chars": {
        "en": "Please remove the special characters.",
        "zh": "请删除其中的特殊字符。",
    },
    "prefs_privacy_id": {
        "en": "I never keep ID or passport numbers. Please leave the number out.",
        "zh": "我不会保存证件号或护照号，请去掉号码。",
    },
    "prefs_privacy_card": {
        "en": (
            "I never keep card details (numbers, security codes, expiry dates). "
            "Name the card type instead, e.g. “corporate Visa”."
        ),
        "zh": "我不会保存银行卡信息（卡号、安全码、有效期），请只写卡的类型，例如“公司 Visa 卡”。",
    },
    "prefs_privacy_account": {
        "en": (
            "I never keep membership or account numbers. "
            "Name the programme instead, e.g. “Bonvoy member”."
        ),
        "zh": "我不会保存会员号或账号，请只写会员计划，例如“万豪旅享家会员”。",
    },
    "prefs_privacy_instructions": {
        "en": "That reads as instructions to me, not as a travel preference, so I didn't keep it.",
        "zh": "这段内容像是给我的指令，而不是出行偏好，所以没有保存。",
    },
    "prefs_privacy_secret": {
        "en": "I never keep passwords, PINs or door and Wi-Fi codes. Please leave them out.",
        "zh": "我不会保存密码、PIN 或门禁、Wi-Fi 密码，请删掉它们。",
    },
    "prefs_privacy_phone": {
        "en": "I never keep phone numbers. Please leave the number out.",
        "zh": "我不会保存电话号码，请去掉号码。",
    },
    "prefs_privacy_amount": {
        "en": "I never keep exact amounts. Say “budget-conscious” instead.",
        "zh": "我不会保存具体金额，可以改写为“预算敏感”。",
    },
    "reject_too_long": {
        "en": "That is too long to keep; please state one preference at a time.",
        "zh": "内容太长，无法保存；请一次只说一条偏好。",
    },
    "reject_too_many": {
        "en": "Too many items at once; please send the rest again.",
        "zh": "一次的条目太多，请把其余的再发一次。",
    },
    "reject_unreadable": {
        "en": "I couldn't read that as text; please write it again.",
        "zh": "无法识别这段文字，请重新输入。",
    },
    "reject_no_content": {
        "en": "That names no travel preference; say what to keep, e.g. 'aisle seat on flights'.",
        "zh": "这句话没有说出要记住的出行偏好，请写完整，例如“坐飞机要靠过道”。",
    },
    "prefs_privacy_other": {
        "en": "I can't keep that: {reason}.",
        "zh": "这条无法保存：{reason}。",
    },
    "prefs_saved": {"en": "Saved your travel preferences.", "zh": "已保存你的出行偏好。"},
    "prefs_saved_profile": {
        "en": "Your preferences now: {sentence}",
        "zh": "你现在的偏好：{sentence}",
    },
    "prefs_saved_no_profile": {
        "en": "No preferences are ticked in the form now.",
        "zh": "表单中目前没有选择任何偏好。",
    },
    "prefs_note_failed": {
        "en": "I couldn't save “{text}” right now; please try again later.",
        "zh": "暂时无法保存“{text}”，请稍后再试。",
    },
    "prefs_unchanged": {
        "en": "Nothing changed; your preferences are as before.",
        "zh": "没有变化，你的偏好保持不变。",
    },
    "prefs_note_added": {"en": "Also noted: “{text}”", "zh": "另外记下了：“{text}”"},
    "prefs_note_duplicate": {"en": "I already knew: “{text}”", "zh": "这条我已经记得：“{text}”"},
    "prefs_note_rejected": {
        "en": "I didn't keep “{text}”: {reason}",
        "zh": "没有保存“{text}”：{reason}",
    },
    "prefs_kept_newer": {
        "en": "Changed elsewhere while the form was open, so I kept the newer choice: {slots}.",
        "zh": "表单打开期间，以下几项在别处改过，我保留了较新的设置：{slots}。",
    },
    "prefs_save_conflict": {
        "en": (
            "I couldn't save the form because it clashes with a change made elsewhere "
            "meanwhile ({detail}); nothing was changed. Please open /travel-prefs again."
        ),
        "zh": (
            "表单与期间在别处做的修改冲突（{detail}），没有做任何更改。请重新打开 /travel-prefs。"
        ),
    },
    "prefs_not_yours": {
        "en": (
            "This form belongs to someone else, so nothing was changed. "
            "Open your own with /travel-prefs."
        ),
        "zh": "这个表单属于其他人，没有做任何更改。请用 /travel-prefs 打开你自己的表单。",
    },
    "prefs_form_outdated": {
        "en": "This form is out of date, so nothing was changed. Please open /travel-prefs again.",
        "zh": "这个表单已过期，没有做任何更改。请重新打开 /travel-prefs。",
    },
    "prefs_no_trigger": {
        "en": (
            "I couldn't open the form: Slack didn't send what I need to open it. "
            "Please run /travel-prefs again."
        ),
        "zh": "无法打开表单：Slack 没有提供打开表单所需的信息。请再运行一次 /travel-prefs。",
    },
    "prefs_open_failed": {
        "en": "I couldn't open the form in time. Please run /travel-prefs again.",
        "zh": "没能及时打开表单，请再运行一次 /travel-prefs。",
    },
    "prefs_help": {
        "en": (
            "*/travel-prefs* opens your travel preferences form.\n"
            "*/travel-prefs show* shows what I remember about you.\n"
            "*/travel-prefs forget* erases everything I remember about you (I ask first).\n"
            "*/travel-prefs link* gives you a link to your preferences page in a browser.\n"
            "*/travel-prefs save trip CODE* saves the trip a plan offered under that code.\n"
            "*/travel-prefs help* shows this help.\n"
            "You can also just tell me in a message, e.g. “I prefer aisle seats”, "
            "and see everything on my Home tab."
        ),
        "zh": (
            "*/travel-prefs* 打开出行偏好表单。\n"
            "*/travel-prefs show* 查看我记住的关于你的偏好。\n"
            "*/travel-prefs forget* 删除我记住的关于你的全部内容（会先确认）。\n"
            "*/travel-prefs link* 给你一个在浏览器中打开偏好页面的链接。\n"
            "*/travel-prefs 保存行程 CODE* 保存方案下给出该代码的行程。\n"
            "*/travel-prefs help* 显示本帮助。\n"
            "也可以直接发消息告诉我，比如“我喜欢靠过道的座位”，并在我的主页标签中查看全部内容。"
        ),
    },
    "prefs_show": {
        "en": "*What I remember about you* ({count} items):\n{summary}",
        "zh": "*我记住的关于你的偏好*（共 {count} 条）：\n{summary}",
    },
    "prefs_show_empty": {
        "en": (
            "I don't remember any travel preferences for you yet. Run /travel-prefs or just "
            "tell me, e.g. “I prefer aisle seats”."
        ),
        "zh": (
            "我还没有记住你的任何出行偏好。"
            "可以运行 /travel-prefs，或直接告诉我，比如“我喜欢靠过道的座位”。"
        ),
    },
    "prefs_forget_ask": {
        "en": (
            "Forget everything I remember about your travel preferences ({count} items)? "
            "This can't be undone."
        ),
        "zh": "要删除我记住的关于你的全部出行偏好（共 {count} 条）吗？删除后无法恢复。",
    },
    "prefs_forget_nothing": {
        "en": "There is nothing to forget: I don't remember any travel preferences for you.",
        "zh": "没有可删除的内容：我没有记住你的任何出行偏好。",
    },
    "prefs_forget_yes": {"en": "Yes, forget everything", "zh": "确认全部删除"},
    "prefs_forgot_all": {
        "en": "Done: I forgot {count} items. I no longer remember any of your travel preferences.",
        "zh": "已完成：删除了 {count} 条，我不再记得你的任何出行偏好。",
    },
    "prefs_forget_cancelled": {
        "en": "OK, I didn't forget anything.",
        "zh": "好的，没有删除任何内容。",
    },
    "prefs_unknown_action": {
        "en": (
            "That button is no longer in use, so nothing changed. Run /travel-prefs to start again."
        ),
        "zh": "这个按钮已不再使用，没有做任何更改。请运行 /travel-prefs 重新开始。",
    },
    "home_title": {"en": "Your travel preferences", "zh": "你的出行偏好"},
    "home_summary_heading": {
        "en": "*How I sum up your preferences*",
        "zh": "*我对你出行偏好的总结*",
    },
    "home_empty": {
        "en": (
            "I don't remember anything about how you like to travel yet. Tell me in a message, "
            "e.g. “I never take red-eye flights”, or use the form."
        ),
        "zh": "我还不了解你的出行偏好。可以发消息告诉我，比如“我从不坐红眼航班”，或者填写表单。",
    },
    "home_edit": {"en": "Edit preferences", "zh": "编辑偏好"},
    "home_forget_all": {"en": "Forget everything", "zh": "全部删除"},
    "home_forget_all_confirm": {
        "en": "Erase everything I remember about your travel preferences? This can't be undone.",
        "zh": "要删除我记住的关于你的全部出行偏好吗？删除后无法恢复。",
    },
    "home_facts_heading": {
        "en": "*What I remember* ({count})",
        "zh": "*我记住的内容*（{count} 条）",
    },
    "home_forget": {"en": "Forget", "zh": "删除"},
    "home_forget_title": {"en": "Forget this?", "zh": "确定删除？"},
    "home_source_chat": {"en": "from chat", "zh": "来自聊天"},
    "home_scope": {"en": "only for: {scope}", "zh": "仅限：{scope}"},
    "home_source_form": {"en": "from the form", "zh": "来自表单"},
    "home_source_admin": {"en": "added by a travel admin", "zh": "由差旅管理员添加"},
    "home_source_console": {"en": "from the terminal console", "zh": "来自终端控制台"},
    # `travel-bot memory add`'s default source: "来自 import" put an English word in Chinese.
    "home_source_import": {"en": "imported from the command line", "zh": "由命令行导入"},
    "home_source_other": {"en": "from {source}", "zh": "来自 {source}"},
    "home_newer": {"en": "Newer", "zh": "较新"},
    "home_older": {"en": "Older", "zh": "较早"},
    "home_never_stores": {
        "en": (
            ":lock: I never store ID or passport numbers, bank-card numbers, phone numbers, "
            "passwords or exact amounts. Only you see this page."
        ),
        "zh": (
            ":lock: 我从不保存证件号或护照号、银行卡号、电话号码、密码或具体金额。"
            "此页面仅你本人可见。"
        ),
    },
    "home_unavailable": {
        "en": "I can't read your preferences right now. Please try again in a minute.",
        "zh": "暂时无法读取你的偏好，请稍后再试。",
    },
    # The page and its API while Redis cannot say whether the link was revoked: a save or a
    # forget is refused, though the page still reads.
    "prefs_change_unavailable": {
        "en": "I can't change your preferences right now; nothing was changed. "
        "Please try again in a minute.",
        "zh": "暂时无法修改你的偏好，这次没有做任何更改，请稍后再试。",
    },
    # The preferences page and its API (issue 14: bot/prefs/links.py, bot/web/).
    "home_forgot_not_refreshed": {
        "en": "Forgotten. Slack would not refresh your Home tab, so it may still show it: "
        "open the tab again to see the change.",
        "zh": "已删除。Slack 没能刷新你的主页标签，那里可能仍显示这条偏好："
        "重新打开主页标签即可看到变化。",
    },
    "home_open_browser": {"en": "Open in browser", "zh": "在浏览器中打开"},
    "prefs_link": {
        "en": (
            "Your preferences page: {url}\n"
            "The link is yours alone: it works once, within {minutes} minutes."
        ),
        "zh": "你的偏好页面：{url}\n此链接仅供你本人使用，只能打开一次，{minutes} 分钟内有效。",
    },
    "prefs_link_off": {
        "en": (
            "The web preferences page isn't set up for this bot. "
            "Use /travel-prefs to edit your preferences here."
        ),
        "zh": "此机器人尚未启用网页版偏好页面。请用 /travel-prefs 在这里编辑你的偏好。",
    },
    "page_brand": {"en": "Travel assistant", "zh": "差旅助手"},
    "page_continue": {"en": "Open your preferences", "zh": "打开你的偏好"},
    "page_skip": {"en": "Skip to content", "zh": "跳到主要内容"},
    "page_language": {"en": "Language", "zh": "语言"},
    "page_summary_heading": {
        "en": "How I sum up your preferences",
        "zh": "我对你出行偏好的总结",
    },
    "page_form_heading": {"en": "Your choices", "zh": "你的选择"},
    "page_facts_heading": {"en": "What I remember ({count})", "zh": "我记住的内容（{count} 条）"},
    "page_no_facts": {"en": "Nothing is remembered yet.", "zh": "目前还没有记住任何内容。"},
    "page_forget_label": {"en": "Forget “{text}”", "zh": "删除“{text}”"},
    "page_forget_confirm": {
        "en": "Forget “{text}”? This can't be undone.",
        "zh": "确定删除“{text}”吗？删除后无法恢复。",
    },
    "page_forgot": {"en": "Forgot “{text}”.", "zh": "已删除“{text}”。"},
    "page_forgot_gone": {
        "en": "That was already forgotten; nothing else changed.",
        "zh": "这条之前已经删除，其他内容没有变化。",
    },
    "page_never_stores": {
        "en": (
            "I never store ID or passport numbers, bank-card numbers, phone numbers, passwords "
            "or exact amounts. Only you can open this page, through your own link."
        ),
        "zh": (
            "我从不保存证件号或护照号、银行卡号、电话号码、密码或具体金额。"
            "只有你能通过自己的链接打开此页面。"
        ),
    },
    "page_errors": {
        "en": "Nothing was saved. Please check these:",
        "zh": "没有保存任何内容，请检查以下几项：",
    },
    "page_save_conflict": {
        "en": "Nothing was saved: these choices clash with a change made elsewhere meanwhile.",
        "zh": "没有保存任何内容：以下选择与期间在别处做的修改冲突。",
    },
    "page_outdated": {
        "en": (
            "Your preferences changed while this page was open, so nothing was saved. "
            "Here they are as they are now; please choose again."
        ),
        "zh": "页面打开期间你的偏好有了变化，所以没有保存。以下是当前的偏好，请重新选择。",
    },
    "page_denied_title": {"en": "This link can't be used", "zh": "此链接无法使用"},
    "page_denied": {
        "en": (
            "It may have expired or been opened already: each link works once, for a short "
            "while, and only for the person it was made for."
        ),
        "zh": "链接可能已过期或已被打开过：每个链接只能使用一次，有效期很短，并且仅限本人使用。",
    },
    "page_denied_new": {
        "en": "Ask the travel assistant for a new link (in Slack: /travel-prefs link).",
        "zh": "请向差旅助手索取新链接（在 Slack 中输入 /travel-prefs link）。",
    },
    # Where else a new link comes from: one line per chat platform the deployment serves.
    "page_denied_new_feishu": {
        "en": (
            "Ask the travel assistant for a new link (in Feishu: send /travel-prefs, "
            "then Edit preferences)."
        ),
        "zh": "请向差旅助手索取新链接（在飞书中发送“我的偏好”，然后点“编辑偏好”）。",
    },
    "page_denied_new_dingtalk": {
        "en": (
            "Ask the travel assistant for a new link (in DingTalk: send /travel-prefs, "
            "then Edit on the web)."
        ),
        "zh": "请向差旅助手索取新链接（在钉钉中发送“我的偏好”，然后点“在网页上编辑”）。",
    },
    "page_denied_new_local": {
        "en": (
            "Make a new link in the terminal console (/travel-prefs link) or on the command "
            "line: travel-bot prefs link --user NS."
        ),
        "zh": (
            "请在终端控制台输入 /travel-prefs link，或在命令行运行 "
            "travel-bot prefs link --user NS 生成新链接。"
        ),
    },
    "page_forbidden_title": {"en": "Nothing was changed", "zh": "没有做任何更改"},
    "page_forbidden": {
        "en": (
            "That request didn't come from your open preferences page. "
            "Reload the page and try again."
        ),
        "zh": "该请求并非来自你打开的偏好页面。请刷新页面后重试。",
    },
    "page_bad_request": {
        "en": (
            "That request could not be read, so nothing was changed. Reload the page and try again."
        ),
        "zh": "无法读取该请求，没有做任何更改。请刷新页面后重试。",
    },
    "page_too_large": {
        "en": "That was too much to send at once, so nothing was changed.",
        "zh": "一次提交的内容太多，没有做任何更改。",
    },
    "page_unavailable_title": {"en": "Temporarily unavailable", "zh": "暂时无法使用"},
    "api_unauthorized": {
        "en": (
            "A valid preferences link token is needed: Authorization: Bearer TOKEN, "
            "or the page's session."
        ),
        "zh": "需要有效的偏好链接令牌：Authorization: Bearer 令牌，或页面会话。",
    },
    "api_csrf": {
        "en": "The CSRF token (X-CSRF-Token) is missing or wrong, so nothing was changed.",
        "zh": "CSRF 令牌（X-CSRF-Token）缺失或不正确，没有做任何更改。",
    },
    "api_malformed_json": {
        "en": "The body is not valid JSON, so nothing was changed.",
        "zh": "请求体不是有效的 JSON，没有做任何更改。",
    },
    "api_not_object": {
        "en": (
            'The body must be a JSON object: {"slots": {...}, "note": "..."}; nothing was changed.'
        ),
        "zh": '请求体必须是 JSON 对象：{"slots": {...}, "note": "..."}；没有做任何更改。',
    },
    "api_too_large": {
        "en": "The body is larger than {limit} bytes, so nothing was changed.",
        "zh": "请求体超过 {limit} 字节，没有做任何更改。",
    },
    "api_json_only": {
        "en": "Send JSON (Content-Type: application/json); nothing was changed.",
        "zh": "请发送 JSON（Content-Type: application/json）；没有做任何更改。",
    },
    "api_invalid": {
        "en": "Nothing was saved; see the errors by field.",
        "zh": "没有保存任何内容，请查看各字段的错误。",
    },
    "api_unknown_field": {
        "en": "This is not a field of the preferences form.",
        "zh": "偏好表单中没有这个字段。",
    },
    "api_method_not_allowed": {
        "en": "This address does not take that method; it takes {methods}. Nothing was changed.",
        "zh": "这个地址不接受该请求方法，只接受 {methods}；没有做任何更改。",
    },
    "api_not_found": {
        "en": "No such fact is remembered for you.",
        "zh": "没有找到你的这条记录。",
    },
    "api_forgot": {"en": "Forgot {count} fact(s).", "zh": "已删除 {count} 条。"},
    # Preference scoring: the one-line basis of a candidate's score (bot/planning/scoring.py).
    "score_no_prefs": {
        "en": "No preferences are known for this traveller; neutral score",
        "zh": "暂无该出行人的偏好记录，按中性评分",
    },
    "score_memory_unavailable": {
        "en": (
            "Remembered preferences could not be read right now (memory unavailable); neutral score"
        ),
        "zh": "暂时无法读取记住的偏好（记忆不可用），按中性评分",
    },
    "score_nothing_applies": {
        "en": "No stated preference applies",
        "zh": "没有适用于此项的偏好",
    },
    "score_red_eye_avoided": {
        "en": "Red-eye flight; the traveller avoids red-eyes",
        "zh": "红眼航班，用户明确避开",
    },
    "score_not_red_eye": {
        "en": "Not a red-eye, as the traveller wants",
        "zh": "非红眼航班，符合用户偏好",
    },
    "score_red_eye_accepted": {
        "en": "Red-eye; the traveller accepts red-eyes",
        "zh": "红眼航班，用户可以接受",
    },
    "score_airline_avoided": {
        "en": "{name}, an airline the traveller avoids",
        "zh": "{name}，用户避开的航司",
    },
    "score_airline_preferred": {
        "en": "{name}, the traveller's preferred airline",
        "zh": "{name}，用户偏好的航司",
    },
    "score_airline_not_preferred": {
        "en": "{name}, not a preferred airline ({preferred})",
        "zh": "{name}，非用户偏好航司（{preferred}）",
    },
    "score_nonstop_only": {
        "en": "{stops} stop(s); the traveller wants nonstop flights only",
        "zh": "需转机{stops}次，用户只坐直飞",
    },
    "score_too_many_stops": {
        "en": "{stops} stops; the traveller accepts at most {limit}",
        "zh": "需转机{stops}次，用户最多接受{limit}次",
    },
    "score_nonstop": {"en": "Nonstop", "zh": "直飞"},
    "score_cabin_match": {
        "en": "{cabin}, as the traveller flies",
        "zh": "{cabin}，符合用户的舱位偏好",
    },
    "score_cabin_mismatch": {
        "en": "{cabin}; the traveller flies {wanted}",
        "zh": "{cabin}，用户偏好{wanted}",
    },
    "score_rail_match": {
        "en": "{seat}, the traveller's seat class on trains",
        "zh": "{seat}，符合用户的座席要求",
    },
    "score_rail_mismatch": {
        "en": "{seat}; the traveller takes {wanted}",
        "zh": "{seat}，用户要坐{wanted}",
    },
    "score_flight_prefers_rail": {
        "en": "Flight; the traveller prefers trains",
        "zh": "飞机，用户优先坐高铁",
    },
    "score_flight_preferred": {
        "en": "Flight, as the traveller prefers",
        "zh": "飞机，符合用户优先坐飞机",
    },
    "score_train_preferred": {
        "en": "Train, as the traveller prefers",
        "zh": "高铁，符合用户优先坐高铁",
    },
    "score_train_prefers_flight": {
        "en": "Train; the traveller prefers flying",
        "zh": "高铁，用户优先坐飞机",
    },
    "score_breakfast_included": {
        "en": "Breakfast included, as the traveller needs",
        "zh": "含早餐，符合用户要求",
    },
    "score_breakfast_missing": {
        "en": "Room only; the traveller needs breakfast included",
        "zh": "不含早餐，用户要求含早",
    },
    "score_breakfast_unneeded": {
        "en": "Breakfast included, which the traveller does not need",
        "zh": "含早餐，但用户不需要",
    },
    "score_room_only_ok": {
        "en": "Room only; the traveller skips breakfast",
        "zh": "不含早，用户不需要早餐",
    },
    "score_brand_avoided": {
        "en": "{name}, a brand the traveller avoids",
        "zh": "{name}，用户避开的品牌",
    },
    "score_brand_preferred": {
        "en": "{name}, the traveller's preferred hotel brand",
        "zh": "{name}，用户偏好的酒店品牌",
    },
    "score_brand_not_preferred": {
        "en": "{name}, not a preferred brand",
        "zh": "{name}，非用户偏好品牌",
    },
    "score_budget_cheap": {
        "en": "Among the cheaper options; the traveller is budget-conscious",
        "zh": "价格较低，符合用户预算敏感",
    },
    "score_budget_dear": {
        "en": "Pricier option; the traveller is budget-conscious",
        "zh": "价格偏高，用户预算敏感",
    },
    "score_comfort": {
        "en": "Premium comfort; the traveller puts comfort first",
        "zh": "舒适度高，符合用户舒适优先",
    },
    # The company's travel policy (bot/policy, bot/planning/compliance.py): each rule an
    # option breaks, and why options were out of policy, grouped.
    "policy_break_hotel_cap": {
        "en": "over policy: {city} hotel cap {cap}/night ({grade}), this hotel {price}/night",
        "zh": "超出差标：{city}酒店上限 {cap}/晚（{grade}），此酒店 {price}/晚",
    },
    "policy_break_flight_cabin": {
        "en": "{cabin}: {grade} flies {allowed}",
        "zh": "超出差标：{cabin}，{grade} 应乘{allowed}",
    },
    "policy_break_flight_cabin_long": {
        "en": "{cabin}: {grade} flies {allowed} on flights under {hours} h",
        "zh": "超出差标：{cabin}，{grade} 在 {hours} 小时以内的航班应乘{allowed}",
    },
    "policy_break_rail_class": {
        "en": "{seat}: {grade} rides {allowed}",
        "zh": "超出差标：{seat}，{grade} 应乘{allowed}",
    },
    "policy_break_advance_booking": {
        "en": "booked {days} day(s) ahead: the policy asks for {required}",
        "zh": "超出差标：提前 {days} 天预订，差标要求至少提前 {required} 天",
    },
    "policy_break_preferred_airlines": {
        "en": "{airline}: the policy books {preferred} only",
        "zh": "超出差标：{airline}，差标只订{preferred}",
    },
    "policy_break_stated": {"en": "{text}", "zh": "{text}"},
    "policy_why_stated": {"en": "{n}: {text}", "zh": "{n} 个：{text}"},
    "policy_why_hotel_cap": {
        "en": "{n} over the {city} hotel cap of {cap}/night ({grade})",
        "zh": "{n} 个超过{city}酒店上限 {cap}/晚（{grade}）",
    },
    "policy_why_flight_cabin": {
        "en": "{n} above {allowed} ({grade} flies {allowed})",
        "zh": "{n} 个高于{allowed}（{grade} 应乘{allowed}）",
    },
    "policy_why_flight_cabin_long": {
        "en": "{n} above {allowed} ({grade} flies {allowed} on flights under {hours} h)",
        "zh": "{n} 个高于{allowed}（{grade} 在 {hours} 小时以内的航班应乘{allowed}）",
    },
    "policy_why_rail_class": {
        "en": "{n} above {allowed} ({grade} rides {allowed})",
        "zh": "{n} 个高于{allowed}（{grade} 应乘{allowed}）",
    },
    "policy_why_advance_booking": {
        "en": "{n} booked {days} day(s) ahead, the policy asks for {required}",
        "zh": "{n} 个只提前 {days} 天预订，差标要求至少提前 {required} 天",
    },
    "policy_why_preferred_airlines": {
        "en": "{n} on airlines other than {preferred}",
        "zh": "{n} 个不是{preferred}的航班",
    },
    "policy_out_of_policy": {
        "en": "{out} of {total} options are out of policy ({grade}): {why}.",
        "zh": "{total} 个选项中有 {out} 个超出差标（{grade}）：{why}。",
    },
    "policy_all_in_policy": {
        "en": "All {total} options are within the travel policy ({grade}).",
        "zh": "全部 {total} 个选项都符合差标（{grade}）。",
    },
    "policy_shown_out_of_policy": {
        "en": "Shown although out of policy: much better for the traveller; it needs approval.",
        "zh": "虽超出差标仍列出：明显更符合出差人偏好，需要审批。",
    },
    "policy_none_in_policy": {
        "en": "No option of this leg is within the policy; every one shown needs approval.",
        "zh": "这一段没有符合差标的选项，列出的都需要审批。",
    },
    # Approvals of out-of-policy choices (bot/flows/approvals.py and the channels' widgets).
    "approval_pick_button": {
        "en": "Save with {option} (needs approval)",
        "zh": "选此项保存（需审批）：{option}",
    },
    "approval_reason_title": {"en": "Why this option?", "zh": "为什么选这个选项？"},
    "approval_reason_ask": {
        "en": "{trip}: {choice} is outside the travel policy ({breaks}). "
        "Say why it is needed; your approver will see it.",
        "zh": "{trip}：{choice} 超出差标（{breaks}）。请说明原因，审批人会看到。",
    },
    "approval_reason_label": {"en": "Reason", "zh": "原因"},
    "approval_reason_hint": {
        "en": "e.g. the client's office is next door",
        "zh": "例如：客户办公室就在隔壁",
    },
    "approval_reason_submit": {"en": "Ask for approval", "zh": "提交审批"},
    "approval_reason_reply": {
        "en": "Reply in this chat with: {command} followed by your reason.",
        "zh": "请在本会话回复：{command} 加上原因。",
    },
    "approval_reason_empty": {
        "en": "Please give a reason.",
        "zh": "请填写原因。",
    },
    "approval_reason_too_long": {
        "en": "A reason is at most 500 characters.",
        "zh": "原因最多 500 个字。",
    },
    "approval_reason_private": {
        "en": "A reason may not carry ID, card, account or phone numbers or passwords.",
        "zh": "原因里不能包含证件号、卡号、账号、电话或密码。",
    },
    "approval_sent": {
        "en": "Asked {approvers} to approve {trip}. You will be told here.",
        "zh": "已请 {approvers} 审批{trip}，结果会在这里告诉你。",
    },
    "approval_sent_unconfirmed": {
        "en": "Asked {approvers} to approve {trip}, but the chat service did not confirm that "
        "{unconfirmed} received it: if they have not seen it, let them know it is waiting. "
        "You will be told here.",
        "zh": "已请 {approvers} 审批{trip}，但平台未确认 {unconfirmed} 已收到：如对方没有看到，"
        "请告诉对方有待审批的申请。结果会在这里告诉你。",
    },
    "approval_sent_partly": {
        "en": "Asked {approvers} to approve {trip}; the request could not be sent to {failed}. "
        "You will be told here.",
        "zh": "已请 {approvers} 审批{trip}；申请未能发送给 {failed}。结果会在这里告诉你。",
    },
    "approval_sent_partly_unconfirmed": {
        "en": "Asked {approvers} to approve {trip}; the request could not be sent to {failed}, "
        "and the chat service did not confirm that {unconfirmed} received it: if they have not "
        "seen it, let them know it is waiting. You will be told here.",
        "zh": "已请 {approvers} 审批{trip}；申请未能发送给 {failed}，平台也未确认 {unconfirmed} "
        "已收到：如对方没有看到，请告诉对方有待审批的申请。结果会在这里告诉你。",
    },
    "approval_not_delivered_unconfirmed": {
        "en": "{trip} is waiting for approval, but the request could not be sent to {failed}, "
        "and the chat service did not confirm that {unconfirmed} received it: let them, or a "
        "travel admin, know it is waiting. You will be told here.",
        "zh": "{trip}已在等待审批，但申请未能发送给 {failed}，平台也未确认 {unconfirmed} 已收到："
        "请告诉对方或差旅管理员有待审批的申请。结果会在这里告诉你。",
    },
    "approval_not_delivered": {
        "en": "{trip} is waiting for approval, but the request could not be sent to {failed}: "
        "let them, or a travel admin, know it is waiting. You will be told here.",
        "zh": "{trip}已在等待审批，但申请未能发送给 {failed}："
        "请告诉对方或差旅管理员有待审批的申请。结果会在这里告诉你。",
    },
    "approval_traveller_not_delivered": {
        "en": "The traveller could not be told; please let them know.",
        "zh": "未能通知出行人，请直接告诉对方。",
    },
    # The decision's post failed for a passing reason: the loop tries it again.
    "approval_traveller_retrying": {
        "en": "The traveller could not be told just now; I will keep trying for a while, and "
        "if it still fails I will ask you to let them know.",
        "zh": "暂时未能通知出行人，稍后会自动重试一段时间；如仍失败，会请你直接告诉对方。",
    },
    "approval_traveller_unconfirmed": {
        "en": "The chat service did not confirm that the traveller was told; if they have not "
        "heard, please let them know.",
        "zh": "平台未确认已通知出行人；如对方没有收到，请直接告诉对方。",
    },
    "approval_already_pending": {
        "en": "{trip} is already waiting for approval.",
        "zh": "{trip}已在等待审批。",
    },
    "approval_no_approver": {
        "en": "The travel policy names no approver for this trip; ask a travel admin.",
        "zh": "差标里没有为此行程指定审批人，请联系差旅管理员。",
    },
    "approval_unavailable": {
        "en": "The approval could not be asked for just now; please try again.",
        "zh": "暂时无法提交审批，请稍后再试。",
    },
    "approval_not_allowed": {
        "en": "Only the traveller or a travel admin of the same organisation can ask for this "
        "approval.",
        "zh": "只有出行人本人或同一组织的差旅管理员可以为此提交审批。",
    },
    "approval_title": {"en": "Approval needed: {trip}", "zh": "待审批：{trip}"},
    "approval_body": {
        "en": "{traveller} chose {choice}.\nOut of policy: {breaks}\nReason: {reason}",
        "zh": "{traveller} 选择了 {choice}。\n超出差标：{breaks}\n原因：{reason}",
    },
    "approval_expires": {"en": "Expires on {day}.", "zh": "{day} 过期。"},
    "approval_approve": {"en": "Approve", "zh": "批准"},
    "approval_reject": {"en": "Reject", "zh": "驳回"},
    "approval_state_approved": {"en": "Approved by {who}.", "zh": "{who} 已批准。"},
    "approval_state_rejected": {"en": "Rejected by {who}.", "zh": "{who} 已驳回。"},
    "approval_state_expired": {"en": "Expired without a decision.", "zh": "已过期，未审批。"},
    "approval_state_pending": {"en": "Waiting for a decision.", "zh": "等待审批。"},
    "approval_already_decided": {
        "en": "This request was decided already.",
        "zh": "此审批已处理过。",
    },
    "approval_not_yours": {
        "en": "Only the named approver or a travel admin of the organisation can decide this.",
        "zh": "只有指定的审批人或本组织的差旅管理员可以处理此审批。",
    },
    "approval_unknown": {
        "en": "This approval request no longer exists.",
        "zh": "此审批请求已不存在。",
    },
    "approval_told_approved": {
        "en": "{who} approved {trip} ({choice}).",
        "zh": "{who} 批准了{trip}（{choice}）。",
    },
    "approval_told_rejected": {
        "en": "{who} rejected {trip} ({choice}). Choose an option within the policy, or ask again.",
        "zh": "{who} 驳回了{trip}（{choice}）。请选择符合差标的选项，或重新申请。",
    },
    "approval_told_expired": {
        "en": "The approval of {trip} ({choice}) expired without a decision, so that choice "
        "is not approved. To go ahead with it, save the trip again and give your reason (your "
        "approver is asked again), or choose an option within the policy.",
        "zh": "{trip}（{choice}）的审批已过期，未被处理，因此该选择未获批准。如仍需要，请重新"
        "保存行程并填写理由（会再次请审批人审批），或选择符合差标的选项。",
    },
    # Sent one-to-one when the expiry's post in the thread failed or may not have arrived.
    "approval_told_expired_direct": {
        "en": "I could not confirm that my message in the thread where you asked reached "
        "you, so here it is: the approval of {trip} ({choice}) expired without a decision, "
        "so that choice is not approved. To go ahead with it, save the trip again and give "
        "your reason (your approver is asked again), or choose an option within the policy.",
        "zh": "我无法确认你提交申请的那个对话里的消息已送达，所以在这里再说一次：{trip}（{choice}）"
        "的审批已过期，未被处理，因此该选择未获批准。如仍需要，请重新保存行程并填写理由"
        "（会再次请审批人审批），或选择符合差标的选项。",
    },
    # To the decider, one-to-one, when the tries their card announced ended untold
    # (`approval_traveller_retrying`): failed or refused for good, or unconfirmed.
    "approval_decider_tell": {
        "en": "{traveller} could not be told that {trip} ({choice}) is {state}, although I "
        "kept trying; please let them know.",
        "zh": "多次重试后仍未能通知 {traveller}：{trip}（{choice}）{state}，请直接告诉对方。",
    },
    "approval_decider_unconfirmed": {
        "en": "The chat service did not confirm that {traveller} was told that {trip} "
        "({choice}) is {state}; if they have not heard, please let them know.",
        "zh": "平台未确认已通知 {traveller}：{trip}（{choice}）{state}；如对方没有收到，"
        "请直接告诉对方。",
    },
    "trips_heading": {"en": "Your trips", "zh": "你的行程"},
    "trip_state_pending": {"en": "waiting for approval", "zh": "待审批"},
    "trip_state_approved": {"en": "approved", "zh": "已批准"},
    "trip_state_rejected": {"en": "rejected", "zh": "已驳回"},
    "trip_state_expired": {"en": "approval expired", "zh": "审批已过期"},
    # Trip planning tool errors and notes (bot/planning/planner.py).
    "plan_unknown_city": {
        "en": "I don't know the city {city!r}. Known cities include: {examples}.",
        "zh": "我不认识城市“{city}”。可选城市例如：{examples}。",
    },
    "plan_same_city": {
        "en": "The origin and the destination are the same city ({city}).",
        "zh": "出发地和目的地是同一个城市（{city}）。",
    },
    "plan_bad_date": {
        "en": "{field} must be a date written YYYY-MM-DD (got {value!r}).",
        "zh": "{field} 必须是 YYYY-MM-DD 格式的日期（收到的是“{value}”）。",
    },
    "plan_past_date": {
        "en": "{date} is in the past (today is {today}). Please pick a later date.",
        "zh": "{date} 已经过去了（今天是 {today}），请选择之后的日期。",
    },
    "plan_too_far": {
        "en": "{date} is too far ahead: I can plan up to {days} days out (until {last}).",
        "zh": "{date} 太远了：最多只能规划 {days} 天以内的行程（截至 {last}）。",
    },
    "plan_return_before_departure": {
        "en": "The return date {ret} is before the departure date {depart}.",
        "zh": "返程日期 {ret} 早于出发日期 {depart}。",
    },
    "plan_no_candidates": {
        "en": "No flights, trains or hotels were found from {origin} to {destination} on {date}.",
        "zh": "没有找到 {date} 从{origin}到{destination}的航班、高铁或酒店。",
    },
    "plan_inventory_unavailable": {
        "en": "The travel inventory is not reachable right now, so no plan can be made. "
        "Please try again later.",
        "zh": "现在连不上差旅库存系统，暂时无法规划行程，请稍后再试。",
    },
    "plan_demo_note": {
        "en": "Demo data: these schedules and prices are made up, not bookable offers.",
        "zh": "演示数据：以下班次和价格均为虚构，并非可预订的真实报价。",
    },
    "plan_preferences_of": {
        "en": "Preferences used: {whose}.",
        "zh": "使用的偏好：{whose}。",
    },
    # Planning for a colleague and the "Save trip" button (bot/planning/delegation.py,
    # bot/slack/views/trip.py).
    "plan_for_not_admin": {
        "en": (
            "Sorry, only travel admins can plan trips for someone else, so I haven't looked "
            "at {traveller}'s preferences. I'm happy to plan your own trips."
        ),
        "zh": (
            "抱歉，只有差旅管理员可以替他人规划行程，所以我没有查看 {traveller} 的偏好。"
            "你自己的行程我很乐意帮你规划。"
        ),
    },
    "trip_summary": {
        "en": "*Trip:* {origin} → {destination}, {dates}",
        "zh": "*行程：*{origin} → {destination}，{dates}",
    },
    "trip_preferences_of": {
        "en": "Preferences used: {traveller}'s.",
        "zh": "使用的偏好：{traveller} 的偏好。",
    },
    "trip_save_button": {"en": "Save trip", "zh": "保存行程"},
    "trip_auto_saved": {
        "en": "Saved to {traveller}'s trips.",
        "zh": "已保存到 {traveller} 的行程。",
    },
    "trip_saved": {"en": "Trip saved by {user}.", "zh": "{user} 已保存此行程。"},
    "trip_already_saved": {
        "en": "This trip was already saved.",
        "zh": "此行程之前已经保存过了。",
    },
    "trip_save_not_allowed": {
        "en": "Only the traveller or a travel admin of the same organisation can save this trip.",
        "zh": "只有出行人本人或同一组织的差旅管理员可以保存此行程。",
    },
    "trip_save_failed": {
        "en": "Sorry, I couldn't save the trip right now. Please try again.",
        "zh": "抱歉，现在无法保存行程，请稍后再试。",
    },
    # A writer the platform names no person for (an external contact): nothing is kept.
    "outsider": {
        "en": (
            "Hi! I keep travel preferences only for members of this organisation, so I can't "
            "help from an external account. Please ask a colleague inside the company."
        ),
        "zh": (
            "你好！我只为本企业成员记住出行偏好，暂时无法为外部联系人提供服务，请联系企业内的同事。"
        ),
    },
    "feishu_prefs_help": {
        "en": (
            "**/travel-prefs** (or 偏好设置) shows what I remember about you, with buttons to "
            "edit it on the web or forget it all.\n\n"
            "**/travel-prefs forget** erases everything I remember about you (I ask first).\n\n"
            "You can also just tell me, e.g. “I prefer aisle seats”."
        ),
        "zh": (
            "**偏好设置**（或 我的偏好）：查看我记住的关于你的偏好，可在网页上修改或全部删除。\n\n"
            "**删除我的偏好**：删除我记住的关于你的全部内容（会先确认）。\n\n"
            "也可以直接告诉我，比如“我喜欢靠过道的座位”。"
        ),
    },
    # DingTalk (issue 16): bot/dingtalk/. Markdown, not Slack mrkdwn.
    "dingtalk_prefs_show": {
        "en": "**What I remember about you** ({count} items):\n\n{summary}",
        "zh": "**我记住的关于你的偏好**（共 {count} 条）：\n\n{summary}",
    },
    "dingtalk_prefs_edit": {"en": "Edit on the web", "zh": "在网页上编辑"},
    "dingtalk_prefs_private": {
        "en": "I've sent your travel preferences to you in a private chat.",
        "zh": "已通过单聊把你的出行偏好发给你。",
    },
    "dingtalk_prefs_private_failed": {
        "en": "I couldn't message you privately. Please send me /travel-prefs in a direct chat.",
        "zh": "无法通过单聊联系你，请在与我的单聊中发送“我的偏好”。",
    },
    # Feishu: the preferences card did not reach the person (bot/feishu/undelivered.py).
    "feishu_prefs_unreachable": {
        "en": (
            "I couldn't send your travel preferences to you directly: Feishu doesn't let me "
            "message you one-to-one (the app may not be available to you; a Feishu admin can "
            "add you to its availability). Nothing was changed."
        ),
        "zh": (
            "无法通过单聊把你的出行偏好发给你：飞书不允许我单独给你发消息（应用的可用范围可能"
            "不包括你，可请飞书管理员把你加入）。没有做任何更改。"
        ),
    },
    "feishu_prefs_busy": {
        "en": (
            "Feishu is limiting how many messages I can send right now, so your travel "
            "preferences card did not go out. Please try again in a minute."
        ),
        "zh": "飞书暂时限制了我的发消息频率，你的出行偏好卡片没有发出。请一分钟后再试。",
    },
    "feishu_prefs_failed": {
        "en": (
            "I couldn't show your travel preferences card just now (Feishu refused it, code "
            "{code}). Please try again; if it keeps failing, send /travel-prefs to me in a "
            "direct chat."
        ),
        "zh": (
            "刚才没能显示你的出行偏好卡片（飞书拒绝了它，错误码 {code}）。请再试一次；"
            "如果仍然失败，请在与我的单聊中发送“我的偏好”。"
        ),
    },
    # `feishu_prefs_failed` when the request never reached Feishu: there is no code to name.
    "feishu_prefs_not_reached": {
        "en": (
            "I couldn't show your travel preferences card just now: I could not reach Feishu. "
            "Please try again in a minute; if it keeps failing, tell your Feishu admin."
        ),
        "zh": (
            "刚才没能显示你的出行偏好卡片：我连接不上飞书。请一分钟后再试；"
            "如果仍然失败，请告诉你的飞书管理员。"
        ),
    },
    # A command's answer reached nobody (bot/flows/undelivered.py): what the person is told.
    "dingtalk_command_busy": {
        "en": (
            "DingTalk is limiting how many messages I can send right now, so my answer to "
            "your command did not go out. Please try again in a minute."
        ),
        "zh": "钉钉暂时限制了我的发消息频率，对你指令的回答没有发出。请一分钟后再试。",
    },
    "dingtalk_command_failed": {
        "en": (
            "I couldn't show you my answer to your command just now (DingTalk refused it: "
            "{code}). Please try again; if it keeps failing, send it to me in a direct chat "
            "or tell your DingTalk admin this code."
        ),
        "zh": (
            "刚才没能把对你指令的回答发给你（钉钉拒绝了它：{code}）。请再试一次；如果仍然失败，"
            "请在与我的单聊中发送，或把这个错误码告诉钉钉管理员。"
        ),
    },
    "slack_command_unreachable": {
        "en": (
            "I couldn't send you my answer: Slack doesn't let me message you directly (Slack "
            "said “{code}”). A Slack admin can allow the app to message you; then please "
            "try again."
        ),
        "zh": (
            "无法把回答发给你：Slack 不允许我直接给你发消息（Slack 返回“{code}”）。"
            "可请 Slack 管理员允许本应用给你发消息，然后再试一次。"
        ),
    },
    "slack_command_busy": {
        "en": (
            "Slack is limiting how many messages I can send right now, so my answer did not "
            "reach you. Please try again in a minute."
        ),
        "zh": "Slack 暂时限制了我的发消息频率，我的回答没有发出。请一分钟后再试。",
    },
    "slack_command_failed": {
        "en": (
            "I couldn't show you my answer just now (Slack said “{code}”). Please try "
            "again; if it keeps failing, tell your Slack admin this code."
        ),
        "zh": (
            "刚才没能把回答发给你（Slack 返回“{code}”）。请再试一次；"
            "如果仍然失败，请把这个错误码告诉 Slack 管理员。"
        ),
    },
    # A reply in a Slack conversation that Slack would not post (`bot.slack.sink`), told to
    # the writer only (ephemeral in the conversation, else a direct message).
    "slack_reply_unreachable": {
        "en": (
            "I couldn't post my answer in that conversation (Slack said “{code}”). Invite me "
            "to the channel, or ask me in a direct message."
        ),
        "zh": "无法在那个会话里发出回答（Slack 返回“{code}”）。请邀请我进频道，或私信问我。",
    },
    "slack_reply_busy": {
        "en": (
            "Slack is limiting how many messages I can send right now, so my answer was not "
            "posted. Please ask again in a minute."
        ),
        "zh": "Slack 暂时限制了我的发消息频率，我的回答没有发出。请一分钟后再问一次。",
    },
    "slack_reply_failed": {
        "en": (
            "Slack would not take my answer (Slack said “{code}”), so it was not posted. "
            "Please ask again; if it keeps failing, tell your Slack admin this code."
        ),
        "zh": (
            "Slack 没有接收我的回答（Slack 返回“{code}”），所以它没有发出。请再问一次；"
            "如果仍然失败，请把这个错误码告诉 Slack 管理员。"
        ),
    },
    "dingtalk_or_send": {"en": "Or send: {command}", "zh": "也可以发送：{command}"},
    "prefs_forget_expired": {
        "en": (
            "That confirmation has expired or was already used, so nothing changed. "
            "Send /travel-prefs forget to start again."
        ),
        "zh": "这个确认已过期或已使用，没有做任何更改。请重新发送“删除我的偏好”。",
    },
    "dingtalk_forget_not_yours": {
        "en": "This confirmation belongs to someone else, so nothing was changed.",
        "zh": "这个确认属于其他人，没有做任何更改。",
    },
    "dingtalk_prefs_help": {
        "en": (
            "**/travel-prefs** shows what I remember about you.\n\n"
            "**/travel-prefs forget** erases everything I remember about you (I ask first).\n\n"
            "**/travel-prefs help** shows this help.\n\n"
            "You can also just tell me, e.g. “I prefer aisle seats”."
        ),
        "zh": (
            "**我的偏好**（或 偏好设置）：查看我记住的关于你的偏好。\n\n"
            "**删除我的偏好**：删除我记住的关于你的全部内容（会先确认）。\n\n"
            "也可以直接告诉我，比如“我喜欢靠过道的座位”。"
        ),
    },
    "dingtalk_trip_summary": {
        "en": "**Trip:** {origin} → {destination}, {dates}",
        "zh": "**行程：**{origin} → {destination}，{dates}",
    },
    "dingtalk_leg_outbound": {"en": "Outbound", "zh": "去程"},
    "dingtalk_leg_return": {"en": "Return", "zh": "返程"},
    "dingtalk_leg_hotel": {"en": "Hotel", "zh": "酒店"},
    "dingtalk_save_in_group": {
        "en": "To save this trip, @mention me with: {command}",
        "zh": "要保存此行程，请 @我 并发送：{command}",
    },
    "dingtalk_card_answer_below": {
        "en": "The answer could not be shown here; it follows below.",
        "zh": "这里无法显示回答，请看下方的消息。",
    },
    "slack_save_button_lost": {
        "en": "Slack would not show the *Save trip* button under this plan. To save the trip, "
        "ask me to plan it again and use the button under the new plan.",
        "zh": "Slack 没能在这个行程方案下显示“保存行程”按钮。要保存此行程，请让我重新规划一次，"
        "再点击新方案下的按钮。",
    },
    "slack_save_or_send": {
        "en": "Can't use the button? Send me {command} to save the trip (in a channel, "
        "@mention me with it).",
        "zh": "无法使用按钮？把 {command} 发给我即可保存行程（在频道里请 @我 并发送）。",
    },
    "slack_reason_button": {"en": "Give a reason", "zh": "填写理由"},
    "slack_reason_or_send": {
        "en": "Or send me {command} followed by your reason in a direct message, or type "
        "{slash} and your reason anywhere: only you see it.",
        "zh": "也可以在与我的单聊中发送 {command} 加上原因，或在任意位置输入 {slash} 加上原因"
        "（只有你能看到）。",
    },
    "slack_save_button_lost_typed": {
        "en": "Slack would not show the *Save trip* button under this plan. To save the trip, "
        "send me {command} in a direct message, or type {slash} anywhere: only you see it.",
        "zh": "Slack 没能在这个行程方案下显示“保存行程”按钮。要保存此行程，请在与我的单聊中"
        "发送 {command}，或在任意位置输入 {slash}（只有你能看到）。",
    },
    "trip_save_unknown": {
        "en": "I can't find that plan any more, so nothing was saved. Ask me to plan it again.",
        "zh": "找不到这个行程方案了，没有保存任何内容。请让我重新规划。",
    },
    # -- Slack as an AI app (issue 18): status while working, the assistant pane, feedback --
    # What the agent is doing, shown while it works (Slack: the assistant thread's status).
    "status_recalling": {
        "en": "Recalling your travel preferences…",
        "zh": "正在回忆你的出行偏好…",
    },
    "status_recording": {
        "en": "Noting down your travel preferences…",
        "zh": "正在记下你的出行偏好…",
    },
    "status_planning": {
        "en": "Looking up flights, trains and hotels…",
        "zh": "正在查询航班、火车和酒店…",
    },
    "status_policy": {
        "en": "Reading the travel policy…",
        "zh": "正在查看差标…",
    },
    "status_scoring": {"en": "Scoring {options}…", "zh": "正在为{options}打分…"},
    "status_count_flights": {"en": "{n} flights", "zh": "{n}个航班"},
    "status_count_flights_one": {"en": "1 flight", "zh": "1个航班"},
    "status_count_trains": {"en": "{n} trains", "zh": "{n}趟列车"},
    "status_count_trains_one": {"en": "1 train", "zh": "1趟列车"},
    "status_count_hotels": {"en": "{n} hotels", "zh": "{n}家酒店"},
    "status_count_hotels_one": {"en": "1 hotel", "zh": "1家酒店"},
    "status_and": {"en": ", ", "zh": "、"},
    "status_checking_policy": {
        "en": "Checking the travel policy…",
        "zh": "正在核对差标…",
    },
    # Showing the work (issue 24): the steps of a turn and the preferences it used.
    "work_title": {"en": "How I worked on it", "zh": "我是怎么做的"},
    "work_used_title": {"en": "Preferences I used ({n})", "zh": "用到的偏好（{n}条）"},
    "work_used_short": {"en": "Used: ", "zh": "用到："},
    "work_said_on": {"en": "said on {date}", "zh": "{date} 说的"},
    # Slack's stop button (agent sessions): the turn was stopped for real.
    "turn_stopped": {
        "en": "Stopped. Nothing from this request was saved.",
        "zh": "已停止。这次请求的内容都没有保存。",
    },
    # The assistant pane: the greeting and the suggested prompts of a new thread.
    "assistant_greeting": {
        "en": (
            "Hi! I plan business trips around how you like to travel. Tell me a preference "
            "once and I'll remember it, or ask me to plan a trip."
        ),
        "zh": (
            "你好！我会按你的出行习惯规划差旅。偏好告诉我一次我就会记住，也可以直接让我规划行程。"
        ),
    },
    "assistant_prompts_title": {"en": "Try one of these:", "zh": "可以试试："},
    "assistant_prompt_plan": {"en": "Plan my next trip", "zh": "规划我的下一次出差"},
    "assistant_prompt_plan_message": {
        "en": "Plan my next business trip. Ask me where and when if you need to.",
        "zh": "帮我规划下一次出差，需要的话问我去哪儿、什么时候。",
    },
    "assistant_prompt_remember": {
        "en": "What do you remember about me?",
        "zh": "你记得我哪些出行偏好？",
    },
    "assistant_prompt_preference": {
        "en": "I never take red-eye flights",
        "zh": "出差只坐高铁一等座",
    },
    # Feedback buttons under every answer, and the question after a thumbs-down.
    "feedback_good": {"en": "Helpful", "zh": "有帮助"},
    "feedback_bad": {"en": "Not helpful", "zh": "没帮上忙"},
    "feedback_thanks": {"en": "Thanks for the feedback!", "zh": "谢谢你的反馈！"},
    "feedback_ask": {
        "en": "Sorry that wasn't helpful. What was wrong?",
        "zh": "抱歉没能帮上忙。哪里不对？",
    },
    "feedback_reason_preferences": {
        "en": "It ignored my preferences",
        "zh": "没按我的偏好来",
    },
    "feedback_reason_options": {"en": "The options were poor", "zh": "给的选项不好"},
    "feedback_reason_misunderstood": {"en": "It misunderstood me", "zh": "理解错了我的意思"},
    "feedback_reason_other": {"en": "Something else", "zh": "其他原因"},
    "feedback_tell_more": {
        "en": (
            "Thank you. If you like, tell me in this thread what you expected and I'll try again."
        ),
        "zh": "谢谢。愿意的话，在这个对话里告诉我你期待的是什么，我再试一次。",
    },
    # Feishu (issue 15): the plan card's legs, the preferences card (bot/feishu/).
    "plan_leg_outbound": {"en": "Outbound", "zh": "去程"},
    "plan_leg_return": {"en": "Return", "zh": "返程"},
    "plan_leg_hotel": {"en": "Hotel", "zh": "酒店"},
    "trip_saved_toast": {"en": "Trip saved.", "zh": "行程已保存。"},
    "prefs_card_not_yours": {
        "en": "This card belongs to someone else, so nothing was changed.",
        "zh": "这张卡片属于其他人，没有做任何更改。",
    },
    "replied_privately": {
        "en": "I've answered you in a direct message.",
        "zh": "已通过私聊回复你。",
    },
    "prefs_sent_privately": {
        "en": "I've sent you your travel preferences in a direct message.",
        "zh": "已通过私聊把你的出行偏好发给你。",
    },
    "prefs_never_stores": {
        "en": (
            "I never store ID or passport numbers, bank-card numbers, phone numbers, "
            "passwords or exact amounts."
        ),
        "zh": "我从不保存证件号或护照号、银行卡号、电话号码、密码或具体金额。",
    },
    # -- the operator's command line (`bot.cli`): the words after "error:", "warning:"
    # and "note:" (those prefixes stay English in both languages, for grep), and its
    # status lines; in the language `bot.cli.language.operator_lang` picks.
    "cli_nothing_remembered": {
        "en": "nothing remembered for {namespace}",
        "zh": "没有为 {namespace} 记住任何内容",
    },
    "cli_did_you_mean": {"en": " (did you mean {namespace}?)", "zh": "（是不是 {namespace}？）"},
    "cli_new_namespace": {
        "en": "{namespace} is new: nothing was remembered for it before",
        "zh": "{namespace} 是新的：此前没有为它记住任何内容",
    },
    "cli_cache_not_dropped": {
        "en": (
            "Redis did not answer, so the assistant may go on using the preferences of "
            "{namespace} as they were before this change for up to {minutes} minutes "
            "(its cached copy could not be dropped)"
        ),
        "zh": (
            "Redis 没有应答，助手在最多 {minutes} 分钟内可能仍按 {namespace} 改动前的偏好"
            "回答（无法删除它的缓存副本）"
        ),
    },
    "cli_cache_deferred": {
        "en": (
            "Redis did not answer; the assistant's cached copy of the preferences of "
            "{namespace} is dropped as soon as Redis answers again (the change is saved)"
        ),
        "zh": "Redis 没有应答；Redis 恢复后会立即删除助手缓存的 {namespace} 的偏好（改动已保存）",
    },
    "cli_ambiguous_id": {
        "en": (
            "{count} facts of {namespace} have ids beginning {prefix}; give more of the id "
            "(memory export lists them whole); nothing was forgotten"
        ),
        "zh": (
            "{namespace} 有 {count} 条记录的编号以 {prefix} 开头；请给出更长的编号"
            "（memory export 列出完整编号）；没有删除任何内容"
        ),
    },
    "cli_no_such_fact": {
        "en": "no fact {prefix} in the memory of {namespace}",
        "zh": "{namespace} 的记忆里没有编号为 {prefix} 的记录",
    },
    "cli_forgot": {"en": "forgot {what}{earlier}", "zh": "已删除{what}{earlier}"},
    "cli_one_fact": {"en": "1 fact", "zh": " 1 条记录"},
    "cli_facts": {"en": "{count} facts", "zh": " {count} 条记录"},
    "cli_one_earlier_version": {"en": "1 earlier version", "zh": " 1 个更早的版本"},
    "cli_earlier_versions": {"en": "{count} earlier versions", "zh": " {count} 个更早的版本"},
    "cli_replaced_by_it": {"en": " and {versions} it replaced", "zh": "，以及它取代的{versions}"},
    "cli_replaced_by_them": {
        "en": " and {versions} they replaced",
        "zh": "，以及它们取代的{versions}",
    },
    "cli_forget_all_question": {
        "en": "Forget all {count} fact(s) remembered for {namespace}, history included?",
        "zh": "删除为 {namespace} 记住的全部 {count} 条记录（包括历史）？",
    },
    "cli_forget_all_needs_yes": {
        "en": "{question} Add --yes to confirm when not on a terminal; nothing was forgotten.",
        "zh": "{question}不在终端上时请加 --yes 确认；没有删除任何内容。",
    },
    "cli_nothing_forgotten": {"en": "nothing was forgotten", "zh": "没有删除任何内容"},
    "cli_links_not_revoked": {
        "en": (
            "Redis could not record it, so links to the preferences page of {namespace} "
            "and their page sessions stay usable until they expire"
        ),
        "zh": "Redis 没能记下这次撤销，所以 {namespace} 的偏好页链接和页面会话在过期前仍可使用",
    },
    "cli_database_unreachable": {
        "en": "cannot connect to PostgreSQL at {where} ({variable}): {reason}",
        "zh": "无法连接 {where} 上的 PostgreSQL（{variable}）：{reason}",
    },
    "cli_bailian_needs_dsn": {
        "en": "bailian-init needs MEMORY_DSN={dsn} ('default' for the account's default library)",
        "zh": "bailian-init 需要 MEMORY_DSN={dsn}（用 default 表示账号的默认记忆库）",
    },
    "cli_bailian_unexpected": {
        "en": "Bailian did not answer as expected: {reason}",
        "zh": "百炼的应答不符合预期：{reason}",
    },
    "cli_page_not_configured": {
        "en": "the preferences page is not configured: {problem}",
        "zh": "偏好页没有配置好：{problem}",
    },
    "cli_ttl_out_of_range": {
        "en": "--ttl-minutes must be between 1 and {most}",
        "zh": "--ttl-minutes 必须在 1 到 {most} 之间",
    },
    "cli_page_starts_empty": {
        "en": "{note}; the page starts empty",
        "zh": "{note}；页面一开始是空的",
    },
    "cli_trip_saved": {"en": "saved: {trip}", "zh": "已保存：{trip}"},
    "cli_trip_already_saved": {"en": "already saved: {trip}", "zh": "已经保存过：{trip}"},
    "cli_trip_removed": {"en": "removed: {trip}", "zh": "已删除：{trip}"},
    "cli_city_not_in_catalogue": {
        "en": "{city!r} is not in the city catalogue; saved as typed",
        "zh": "{city!r} 不在城市目录里；按输入原样保存",
    },
    "cli_no_such_trip": {
        "en": (
            "no trip of {namespace} to {city} starting {start} (trips list --user NS shows "
            "them); nothing was removed"
        ),
        "zh": (
            "{namespace} 没有 {start} 出发去 {city} 的行程（trips list --user NS 列出行程）；"
            "没有删除任何内容"
        ),
    },
    "cli_no_trips": {"en": "(no trips)", "zh": "（没有行程）"},
    "cli_socket_needs_tokens": {
        "en": "Socket Mode needs SLACK_APP_TOKEN and SLACK_BOT_TOKEN",
        "zh": "Socket Mode 需要 SLACK_APP_TOKEN 和 SLACK_BOT_TOKEN",
    },
    "cli_dingtalk_needs_credentials": {
        "en": "DingTalk Stream mode needs DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET",
        "zh": "钉钉 Stream 模式需要 DINGTALK_CLIENT_ID 和 DINGTALK_CLIENT_SECRET",
    },
    "cli_feishu_needs_credentials": {
        "en": "the Feishu long connection needs FEISHU_APP_ID and FEISHU_APP_SECRET",
        "zh": "飞书长连接需要 FEISHU_APP_ID 和 FEISHU_APP_SECRET",
    },
    "cli_feishu_failed": {
        "en": "the Feishu long connection failed: {reason}",
        "zh": "飞书长连接失败：{reason}",
    },
}


# Why a fact was not kept, by `RecordOutcome.code`: a privacy category or another refusal.
_REJECTIONS = {
    "id": "prefs_privacy_id",
    "card": "prefs_privacy_card",
    "account": "prefs_privacy_account",
    "secret": "prefs_privacy_secret",
    "phone": "prefs_privacy_phone",
    "amount": "prefs_privacy_amount",
    "instructions": "prefs_privacy_instructions",
    "too_long": "reject_too_long",
    "too_many": "reject_too_many",
    "not_text": "reject_unreadable",
    "control_chars": "prefs_control_chars",
    "empty": "reject_unreadable",
    "no_content": "reject_no_content",
}


def rejection(code: str, reason: str, lang: str) -> str:
    """Why a fact was not kept, in `lang`: by its code, or the engine's reason as given."""
    key = _REJECTIONS.get(code)
    return t(key, lang) if key else t("prefs_privacy_other", lang, reason=reason)


def lang_of(text: str, default: Lang = "en") -> Lang:
    return detect_lang(text) if text.strip() else default


def stated_lang(text: str) -> Lang | None:
    """The language `text` itself is written in: Chinese with a Chinese character, English
    with an English word; None when it says nothing of it ("MU5101", "ok", an emoji)."""
    if detect_lang(text) == "zh":
        return "zh"
    return "en" if re.search(r"[A-Za-z]{3,}", text) else None


# A refused fact is shown as memory's masked preview, its sensitive spans replaced by
# `memory.privacy.REDACTED` (not imported: that package loads the privacy models); a reader
# of another language sees the mask in theirs.
REDACTED = "[redacted]"
_MASKS = {"zh": "[已隐去]"}


def t(key: str, lang: str, /, **values: object) -> str:
    """The message `key` in `lang` (English when the language is unknown)."""
    entry = _MESSAGES[key]
    text = entry.get(lang) or entry["en"]
    if not values:
        return text
    mask = _MASKS.get(lang)
    if mask is not None:
        values = {
            name: value.replace(REDACTED, mask) if isinstance(value, str) else value
            for name, value in values.items()
        }
    return text.format(**values)
