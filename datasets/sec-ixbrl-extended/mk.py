import json
from decimal import Decimal as D, ROUND_HALF_UP
Q=[]
def r(x,n): return str(D(x).quantize(D(1).scaleb(-n), rounding=ROUND_HALF_UP))
def add(doc, company, kind, q, answer, note):
    Q.append({"financebench_id": f"ixext_{len(Q)+1}", "company": company, "doc_name": doc, "question_type": f"ixext-{kind.split('-')[0]}", "question_reasoning": None, "question": q, "answer": answer, "justification": note, "evidence": [{"doc_name": doc, "evidence_page_num": -1, "evidence_text": note}], "kind": kind, "dataset_subset_label": "IXBRL_EXTENDED"})
def money(v, unit='million', n=None):
    s = r(v, n) if n is not None else str(v)
    neg = s.startswith('-'); s = s.lstrip('-')
    i, _, f = s.partition('.')
    i = f"{int(i):,}"
    return f"{'-' if neg else ''}${i}{'.'+f if f else ''} {unit}"
def pct(v,n=1): return r(v,n)+'%'
# --- levels (other line items than the dev set) ---
add('APPLE_2024_10K','Apple','level',"What did Apple spend on research and development in fiscal 2024 (year ended September 28, 2024)? Answer in USD millions.", money(31370), "Research and development 31,370 (income statement p.30)")
add('APPLE_2024_10K','Apple','level',"Apple's provision for income taxes for fiscal year 2024, in millions of dollars?", money(29749), "Provision for income taxes 29,749")
add('APPLE_2024_10K','Apple','level',"How much were Apple's inventories on its balance sheet as of September 28, 2024 (USD millions)?", money(7286), "Inventories 7,286")
add('APPLE_2025Q3_10Q','Apple','level',"What were Apple's total net sales for the three months ended June 28, 2025, in USD millions?", money(94036), "Total net sales 94,036 (three months)")
add('APPLE_2025Q3_10Q','Apple','level',"Apple: research and development expense for the nine months ended June 28, 2025 ($ in millions).", money(25684), "Research and development 25,684 (nine months)")
add('HOMEDEPOT_2024_10K','Home Depot','level',"What were Home Depot's merchandise inventories at the end of fiscal 2024 (February 2, 2025), in millions of US dollars?", money(23451), "Merchandise inventories 23,451")
add('HOMEDEPOT_2024_10K','Home Depot','level',"Home Depot's cost of sales for the fiscal year ended February 2, 2025, in USD billions rounded to two decimals?", money(D('106.206'),'billion',2), "Cost of sales 106,206")
add('NETFLIX_2024_10K','Netflix','level',"What was Netflix's operating income in fiscal year 2024, in USD thousands?", "$10,417,614 thousand", "Operating income 10,417,614 (in thousands)")
add('NETFLIX_2025Q2_10Q','Netflix','level',"Netflix: revenues for the three months ended June 30, 2025, in USD millions rounded to the nearest million.", money(11079), "Revenues 11,079,166 thousand")
add('PROCTER_GAMBLE_2025_10K','Procter & Gamble','level',"What were Procter & Gamble's net sales in fiscal 2025 (year ended June 30, 2025), in millions of dollars?", money(84284), "NET SALES 84,284")
add('PROCTER_GAMBLE_2025Q3_10Q','Procter & Gamble','level',"Procter & Gamble: selling, general and administrative expense for the three months ended March 31, 2025 (USD millions).", money(5524), "SG&A 5,524 (three months)")
add('TESLA_2024_10K','Tesla','level',"What was Tesla's research and development expense for the year ended December 31, 2024, in USD millions?", money(4540), "Research and development 4,540")
add('TESLA_2025Q2_10Q','Tesla','level',"What inventory did Tesla report as of June 30, 2025 ($ in millions)?", money(14570), "Inventory 14,570")
add('UNIONPACIFIC_2025Q2_10Q','Union Pacific','level',"Union Pacific's total operating revenues for the second quarter of 2025, in millions of dollars?", money(6154), "Total operating revenues 6,154 (three months ended June 30, 2025)")
add('UNIONPACIFIC_2024_10K','Union Pacific','level',"What accounts payable did Union Pacific report as of December 31, 2024, in USD millions?", money(847), "Accounts payable 847")
# --- prior-year comparatives ---
add('TESLA_2024_10K','Tesla','prior-level',"In Tesla's 2024 Form 10-K, what was income from operations for the year ended December 31, 2023 (USD millions)?", money(8891), "Income from operations 8,891 (2023 column)")
add('PROCTER_GAMBLE_2025Q3_10Q','Procter & Gamble','prior-level',"Procter & Gamble's net sales for the three months ended March 31, 2024, as shown in its Q3 FY2025 10-Q, in USD millions?", money(20195), "NET SALES 20,195 (prior-year quarter)")
add('NETFLIX_2025Q2_10Q','Netflix','prior-level',"What was Netflix's operating income for the six months ended June 30, 2024, in USD thousands?", "$5,235,371 thousand", "Operating income 5,235,371 (six months 2024)")
add('HOMEDEPOT_2024_10K','Home Depot','prior-level',"Home Depot: gross profit for fiscal 2023 (the year ended January 28, 2024), in millions of dollars.", money(50960), "Gross profit 50,960 (fiscal 2023)")
add('APPLE_2025Q3_10Q','Apple','prior-level',"Apple's net income for the three months ended June 29, 2024, in USD millions?", money(21448), "Net income 21,448 (prior-year quarter)")
# --- changes ---
add('APPLE_2024_10K','Apple','change-amount',"By how much did Apple's research and development expense increase from fiscal 2023 to fiscal 2024, in USD millions?", money(31370-29915), "31,370 - 29,915")
add('TESLA_2024_10K','Tesla','change-amount',"How much did Tesla's income from operations change from 2023 to 2024, in millions of dollars (negative if it fell)?", money(7076-8891), "7,076 - 8,891")
add('PROCTER_GAMBLE_2025_10K','Procter & Gamble','change-amount',"Procter & Gamble: change in long-term debt between June 30, 2024 and June 30, 2025, in USD millions.", money(24995-25269), "24,995 - 25,269")
add('UNIONPACIFIC_2025Q2_10Q','Union Pacific','change-amount',"What was the year-over-year change in Union Pacific's net income for the second quarter of 2025 versus the second quarter of 2024, in $ millions?", money(1876-1673), "1,876 - 1,673")
add('NETFLIX_2024_10K','Netflix','change-amount',"How much did Netflix's total stockholders' equity increase from December 31, 2023 to December 31, 2024, in USD thousands?", "$4,155,254 thousand", "24,743,567 - 20,588,313")
add('APPLE_2025Q3_10Q','Apple','change-amount',"Apple: change in total net sales, nine months ended June 28, 2025 vs. nine months ended June 29, 2024, in USD millions.", money(313695-296105), "313,695 - 296,105")
add('HOMEDEPOT_2024_10K','Home Depot','change-pct',"What was Home Depot's net sales growth from fiscal 2023 to fiscal 2024, as a percentage rounded to one decimal?", pct(D(159514-152669)/D(152669)*100), "(159,514 - 152,669) / 152,669")
add('NETFLIX_2024_10K','Netflix','change-pct',"Netflix's revenue growth rate in 2024 compared with 2023, in percent rounded to one decimal place?", pct(D(39000966-33723297)/D(33723297)*100), "(39,000,966 - 33,723,297) / 33,723,297")
add('TESLA_2025Q2_10Q','Tesla','change-pct',"By what percentage did Tesla's total revenues change in the second quarter of 2025 compared with the second quarter of 2024? Round to one decimal.", pct(D(22496-25500)/D(25500)*100), "(22,496 - 25,500) / 25,500")
add('PROCTER_GAMBLE_2025Q3_10Q','Procter & Gamble','change-pct',"Procter & Gamble: percentage change in operating income for the nine months ended March 31, 2025 versus the nine months ended March 31, 2024, to one decimal.", pct(D(16096-14660)/D(14660)*100), "(16,096 - 14,660) / 14,660")
add('UNIONPACIFIC_2024_10K','Union Pacific','change-pct',"What was Union Pacific's year-over-year growth in net income for fiscal 2024, as a percentage rounded to one decimal?", pct(D(6747-6379)/D(6379)*100), "(6,747 - 6,379) / 6,379")
# --- margins and ratios ---
add('APPLE_2024_10K','Apple','ratio-gross_margin',"What was Apple's gross margin percentage in fiscal 2024 (gross margin divided by total net sales)? Round to one decimal.", pct(D(180683)/D(391035)*100), "180,683 / 391,035")
add('APPLE_2025Q3_10Q','Apple','ratio-op_margin',"Apple's operating margin for the three months ended June 28, 2025 (operating income / total net sales), as a percentage to one decimal?", pct(D(28202)/D(94036)*100), "28,202 / 94,036")
add('NETFLIX_2025Q2_10Q','Netflix','ratio-op_margin',"What was Netflix's operating margin for the six months ended June 30, 2025? Operating margin = operating income / revenues. Percent, one decimal.", pct(D(7121693)/D(21621967)*100), "7,121,693 / 21,621,967")
add('PROCTER_GAMBLE_2025_10K','Procter & Gamble','ratio-net_margin',"Procter & Gamble's net margin for fiscal 2025, using net earnings attributable to Procter & Gamble divided by net sales, as a percentage rounded to one decimal?", pct(D(15974)/D(84284)*100), "15,974 / 84,284")
add('TESLA_2024_10K','Tesla','ratio-current_ratio',"Tesla's current ratio at December 31, 2023 (total current assets / total current liabilities), to two decimals?", r(D(49616)/D(28748),2), "49,616 / 28,748")
add('PROCTER_GAMBLE_2025Q3_10Q','Procter & Gamble','ratio-current_ratio',"What was Procter & Gamble's current ratio as of March 31, 2025? Current ratio = total current assets / total current liabilities. Two decimals.", r(D(24435)/D(34248),2), "24,435 / 34,248")
add('UNIONPACIFIC_2025Q2_10Q','Union Pacific','ratio-op_margin',"Union Pacific: operating margin (operating income divided by total operating revenues) for the six months ended June 30, 2025, as a percentage with one decimal.", pct(D(4896)/D(12181)*100), "4,896 / 12,181")
add('NETFLIX_2024_10K','Netflix','ratio-fcf',"What was Netflix's free cash flow in 2023? Free cash flow = net cash provided by operating activities minus purchases of property and equipment. Answer in USD thousands.", "$6,925,749 thousand", "7,274,301 - 348,552")
add('PROCTER_GAMBLE_2025_10K','Procter & Gamble','ratio-de_ratio',"What was Procter & Gamble's long-term debt-to-equity ratio at June 30, 2025, defined as long-term debt divided by total shareholders' equity? Two decimals.", r(D(24995)/D(52284),2), "LONG-TERM DEBT 24,995 / TOTAL SHAREHOLDERS' EQUITY 52,284")
add('TESLA_2025Q2_10Q','Tesla','ratio-op_margin',"Calculate Tesla's operating margin for the six months ended June 30, 2025, defined as income from operations divided by total revenues. Percent to one decimal.", pct(D(1322)/D(41831)*100), "1,322 / 41,831")
# --- must go to review ---
add('APPLE_2024_10K','Apple','review-absent',"What was Apple's goodwill impairment charge in fiscal 2024, in USD millions?", "needs review (not reported)", "Apple's statements report no goodwill impairment line")
add('TESLA_2025Q2_10Q','Tesla','review-segment',"What was Tesla's revenue from the energy business in Q2 2025, in USD millions?", "needs review (segment: energy generation and storage is a segment; not a company total)", "segment figure, ambiguous which line (revenues vs segment revenues)")
add('NETFLIX_2025Q2_10Q','Netflix','review-absent',"What was Netflix's revenue for the third quarter of 2025, in USD millions?", "needs review (period not in the filing)", "the Q2 2025 10-Q has no Q3 2025 column")
add('HOMEDEPOT_2024_10K','Home Depot','review-segment',"What were Home Depot's net sales in the SRS segment in fiscal 2024, in USD millions?", "needs review (segment)", "segment figure")
add('UNIONPACIFIC_2024_10K','Union Pacific','review-absent',"What was Union Pacific's revenue for fiscal 2021, in USD millions?", "needs review (2021 not in the 10-K's income statement columns)", "the 2024 10-K prints 2024, 2023, 2022 only")
open('questions.jsonl','w').write(''.join(json.dumps(q)+'\n' for q in Q))
print(len(Q))
